// The bounded JSON-RPC reader used on a peer's stdout (child agents; Hermes, read by the
// editor extension), over real pipes to a real child process: a frame over the limit is
// skipped without being kept and answered by id, a line with no newline does not grow
// memory, and the messages around them still arrive.
import assert from "node:assert/strict";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { after, test } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { boundedNdJsonStream } from "../../acp-server/util/ndjson-stream";

const MB = 1024 * 1024;
const children: ChildProcessWithoutNullStreams[] = [];
after(() => {
  for (const child of children) child.kill("SIGKILL");
});

/** A peer that writes what the script says to its stdout and reports its stdin lines on stderr. */
function peer(script: string): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, ["-e", `process.stdin.on("data", (d) => process.stderr.write(d));\n${script}`], { stdio: ["pipe", "pipe", "pipe"] });
  children.push(child);
  return child;
}

// Pipe chunks already handed on are garbage until the collector runs, and when it runs depends
// on the machine's load. Collect before each reading, so the figure is what is still held: twice,
// with a turn of the event loop between, because the stream's last read still references its
// chunk until the promise jobs that handed it on have run (CI once read 16 MB of such chunks).
setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc") as () => void;
async function arrayBuffersHeld(): Promise<number> {
  collect();
  await new Promise((resolve) => setImmediate(resolve));
  collect();
  return process.memoryUsage().arrayBuffers;
}

async function nextMessages(reader: ReadableStreamDefaultReader<unknown>, count: number): Promise<unknown[]> {
  const got: unknown[] = [];
  while (got.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    got.push(value);
  }
  return got;
}

test("a huge reply is skipped in bounded memory and fails its request instead of hanging; the next message arrives", async () => {
  // 48 MB in one reply, limit 1 MB; written in pieces so the pipe really streams it.
  const child = peer(`
    const out = process.stdout;
    const piece = "x".repeat(1024 * 1024);
    out.write('{"jsonrpc":"2.0","id":7,"result":"');
    let n = 0;
    const more = () => { while (n < 48) { n++; if (!out.write(piece)) return out.once("drain", more); } out.write('"}\\n{"jsonrpc":"2.0","method":"after","params":{}}\\n'); };
    more();
  `);
  const warnings: string[] = [];
  const stream = boundedNdJsonStream<Record<string, unknown>>(child.stdin, child.stdout, { maxFrameBytes: 1 * MB, warn: (message) => warnings.push(message) });
  const before = await arrayBuffersHeld();
  const [failed, after] = (await nextMessages(stream.readable.getReader(), 2)) as Record<string, any>[];
  assert.equal(failed?.id, 7);
  assert.match(failed?.error?.message ?? "", /larger than 1 MB/);
  assert.equal(after?.method, "after");
  assert.ok((await arrayBuffersHeld()) - before < 16 * MB, "the skipped frame was kept in memory");
  assert.deepEqual(warnings, ["discarded a frame over the size limit"]);
});

test("a line that never ends costs no memory; once it ends, reading goes on", async () => {
  const child = peer(`
    const out = process.stdout;
    const piece = "y".repeat(1024 * 1024);
    let n = 0;
    const more = () => { while (n < 40) { n++; if (!out.write(piece)) return out.once("drain", more); } process.stdin.once("data", () => out.write('\\n{"jsonrpc":"2.0","method":"alive","params":{}}\\n')); process.stderr.write("SENT\\n"); };
    more();
  `);
  const stream = boundedNdJsonStream<Record<string, unknown>>(child.stdin, child.stdout, { maxFrameBytes: 1 * MB });
  const reader = stream.readable.getReader();
  const before = await arrayBuffersHeld();
  const pending = nextMessages(reader, 1);
  await new Promise<void>((resolve) => child.stderr.on("data", (d: Buffer) => d.toString().includes("SENT") && resolve()));
  // The child has written 40 MB with no newline and is waiting; all of it went through the reader.
  assert.ok((await arrayBuffersHeld()) - before < 16 * MB, "the endless line was buffered");
  const writer = stream.writable.getWriter();
  await writer.write({ jsonrpc: "2.0", method: "go", params: {} });
  const [alive] = (await pending) as Record<string, any>[];
  assert.equal(alive?.method, "alive");
});

test("the peer's oversized request is answered with an error by its id", async () => {
  const child = peer(`process.stdout.write('{"jsonrpc":"2.0","id":"req-9","method":"fs/write_text_file","params":{"content":"' + "z".repeat(3 * 1024 * 1024) + '"}}\\n');`);
  const stream = boundedNdJsonStream<Record<string, unknown>>(child.stdin, child.stdout, { maxFrameBytes: 1 * MB });
  void stream.readable.getReader().read();
  const reply = await new Promise<string>((resolve) => {
    let seen = "";
    child.stderr.on("data", (d: Buffer) => {
      seen += d.toString();
      if (seen.includes("\n")) resolve(seen);
    });
  });
  const parsed = JSON.parse(reply.trim()) as { id: string; error: { code: number } };
  assert.equal(parsed.id, "req-9");
  assert.equal(parsed.error.code, -32600);
});

test("lines that are not JSON-RPC messages are skipped, the rest delivered", async () => {
  const child = peer(`process.stdout.write('not json\\n[1,2]\\n{"jsonrpc":"2.0","method":"ok","params":{}}\\n'); process.stdout.end();`);
  const warnings: string[] = [];
  const stream = boundedNdJsonStream<Record<string, unknown>>(child.stdin, child.stdout, { maxFrameBytes: MB, warn: (message) => warnings.push(message) });
  const got = (await nextMessages(stream.readable.getReader(), 5)) as Record<string, any>[];
  assert.deepEqual(got.map((m) => m.method), ["ok"]);
  assert.equal(warnings.length, 2);
});
