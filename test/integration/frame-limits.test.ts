// Oversized and endless frames over real stdio: the server answers with an error, skips the
// frame without buffering it, keeps serving, and its memory stays bounded (VmHWM, the peak
// resident set, read from /proc after the fact: a memory bound, not a timing). The growth
// allowed is the limit (a frame is held up to it) plus 64 MB: chunks already skipped stay
// allocated until V8's next collection (about 35 MB measured), but nothing grows with the
// 100 or 200 MB sent.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { once } from "node:events";
import { test } from "node:test";
import type { Writable } from "node:stream";
import { useScriptedModel } from "../support/scripted-model";
import { agentText, makeTempDir, scriptedConfig, startHermes } from "../support/acp-harness";

const scripted = useScriptedModel();
const MB = 1024 * 1024;

/** Peak resident memory of a process, in MB (Linux). */
function peakRssMb(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  assert.ok(match, "no VmHWM in /proc/<pid>/status");
  return Number(match[1]) / 1024;
}

/** Streams `total` bytes of `fill` into the pipe, one reused 1 MB buffer at a time, honouring backpressure. */
async function stream(pipe: Writable, total: number, fill = "a"): Promise<void> {
  const block = Buffer.alloc(MB, fill);
  for (let sent = 0; sent < total; sent += block.length) {
    const piece = total - sent >= block.length ? block : block.subarray(0, total - sent);
    if (!pipe.write(piece)) await once(pipe, "drain");
  }
}

test("a 100 MB frame gets an error with its id, is skipped, and the server keeps serving in bounded memory", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const hermes = await startHermes({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const before = peakRssMb(hermes.child.pid!);
    const stdin = hermes.child.stdin;
    stdin.write(`{"jsonrpc":"2.0","id":"huge","method":"session/prompt","params":{"sessionId":"${sessionId}","prompt":[{"type":"text","text":"`);
    await stream(stdin, 100 * MB);
    stdin.write('"}]}}\n');
    const answer = await hermes.waitForFrame((f) => f.id === "huge", 120_000);
    assert.equal(answer.error.code, -32600);
    assert.match(answer.error.message, /64 MB frame limit \(acp\.max_frame_mb\)/);

    await hermes.initialize();
    model.enqueue({ text: "after the flood" });
    const second = await hermes.newSession(project);
    assert.equal((await hermes.prompt(second.sessionId, "still there?")).stopReason, "end_turn");
    assert.match(agentText(hermes, second.sessionId), /after the flood/);
    assert.equal(hermes.frames.filter((f) => f.id === "huge").length, 1);

    const peak = peakRssMb(hermes.child.pid!);
    console.log(`# 100 MB frame, 64 MB limit: server peak RSS ${before.toFixed(0)} MB before, ${peak.toFixed(0)} MB after`);
    assert.ok(peak - before < 64 + 64, `peak RSS grew by ${(peak - before).toFixed(0)} MB: more than the 64 MB limit + 64 MB`);
    assert.equal(hermes.child.exitCode, null);
    assert.deepEqual(hermes.strayStdout, []);
  } finally {
    await hermes.close();
  }
});

test("200 MB without a newline, then a newline and a request: answered, bounded, still serving", async () => {
  const project = await makeTempDir();
  const hermes = await startHermes({ config: scriptedConfig(scripted().url) });
  try {
    await hermes.initialize();
    await hermes.newSession(project); // the agent is fully loaded: what follows is the frame's cost
    const before = peakRssMb(hermes.child.pid!);
    const stdin = hermes.child.stdin;
    await stream(stdin, 200 * MB, "x");
    // Through writeRaw: the test client then knows the request this answer belongs to (frame schema check).
    hermes.writeRaw('\n{"jsonrpc":"2.0","id":"after","method":"session/new","params":{"cwd":' + JSON.stringify(project) + ',"mcpServers":[]}}\n');
    const skipped = await hermes.waitForFrame((f) => f.error?.code === -32600 && /frame limit/.test(f.error.message), 120_000);
    assert.equal(skipped.id, null, "no id can be recovered from a line of x");
    const created = await hermes.waitForFrame((f) => f.id === "after", 60_000);
    assert.ok(created.result?.sessionId, JSON.stringify(created));

    const peak = peakRssMb(hermes.child.pid!);
    console.log(`# 200 MB line without newline, 64 MB limit: server peak RSS ${before.toFixed(0)} MB before, ${peak.toFixed(0)} MB after`);
    assert.ok(peak - before < 64 + 64, `peak RSS grew by ${(peak - before).toFixed(0)} MB: more than the 64 MB limit + 64 MB`);
    assert.equal(hermes.frames.filter((f) => /frame limit/.test(f.error?.message ?? "")).length, 1, "one answer per oversized frame");
  } finally {
    await hermes.close();
  }
});

test("acp.max_frame_mb from config.yaml: a frame just under it is handled, one over it is refused", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const hermes = await startHermes({ config: { ...scriptedConfig(model.url), acp: { max_frame_mb: 2 } } });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project); // config is loaded by now
    model.enqueue({ text: "read it all" });
    const nearLimit = "b".repeat(Math.floor(1.9 * MB));
    assert.equal((await hermes.prompt(sessionId, nearLimit)).stopReason, "end_turn");
    assert.ok(JSON.stringify(model.requests.at(-1)).includes(nearLimit.slice(0, 1000)), "the model got the big prompt");

    const over = "c".repeat(Math.floor(2.2 * MB));
    await assert.rejects(hermes.prompt(sessionId, over), (error: any) => error.code === -32600 && /2 MB frame limit/.test(error.message));
    model.enqueue({ text: "fine" });
    assert.equal((await hermes.prompt(sessionId, "small again")).stopReason, "end_turn");
  } finally {
    await hermes.close();
  }
});
