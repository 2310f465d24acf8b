import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { test } from "node:test";
import { earlyHandshake, plainInitialize } from "../../acp-server/acp/early-handshake";
import { PROTOCOL_VERSION } from "../../acp-server/acp/initialize-response";
import { createLogger } from "../../acp-server/util/log";

const log = createLogger("test");
/** Output is coalesced until the end of the event-loop turn. */
const settled = () => new Promise((resolve) => setImmediate(resolve));
const init = (params: unknown, id: unknown = 1) => JSON.stringify({ jsonrpc: "2.0", id, method: "initialize", params });

test("our protocol version is the SDK's", () => assert.equal(PROTOCOL_VERSION, acp.PROTOCOL_VERSION));

const table: [string, string, boolean][] = [
  ["minimal", init({ protocolVersion: 1 }), true],
  ["with capabilities and client info", init({ protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: false }, terminal: true }, clientInfo: { name: "zed", version: "1" } }), true],
  ["string id", init({ protocolVersion: 1 }, "a"), true],
  ["not json", "{nope", false],
  ["another method", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "session/new", params: {} }), false],
  ["a notification", JSON.stringify({ jsonrpc: "2.0", method: "initialize", params: { protocolVersion: 1 } }), false],
  ["no protocol version", init({}), false],
  ["fractional protocol version", init({ protocolVersion: 1.5 }), false],
  ["fs is not an object", init({ protocolVersion: 1, clientCapabilities: { fs: true } }), false],
  ["terminal is not a boolean", init({ protocolVersion: 1, clientCapabilities: { terminal: "yes" } }), false],
  ["client info without a version", init({ protocolVersion: 1, clientInfo: { name: "x" } }), false],
  ["client info null, other capabilities and _meta", init({ protocolVersion: 1, clientInfo: null, clientCapabilities: { auth: { terminal: true }, elicitation: { form: {} } }, _meta: { x: 1 } }), true],
  ["protocol version over 65535", init({ protocolVersion: 65536 }), false],
  ["negative protocol version", init({ protocolVersion: -1 }), false],
  ["params not an object", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: [1] }), false],
  ["jsonrpc 1.0", JSON.stringify({ jsonrpc: "1.0", id: 1, method: "initialize", params: { protocolVersion: 1 } }), false],
  ["a null id", init({ protocolVersion: 1 }, null), false],
];
for (const [name, line, expected] of table) {
  test(`plainInitialize: ${name}`, () => assert.equal(plainInitialize(line) !== undefined, expected));
}

async function collect(stream: ReadableStream<unknown>): Promise<unknown[]> {
  const messages: unknown[] = [];
  for await (const message of stream as unknown as AsyncIterable<unknown>) messages.push(message);
  return messages;
}

test("answers initialize at once; the SDK gets that message, then the rest once it has answered it", async () => {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let written = "";
  stdout.on("data", (chunk: Buffer) => (written += chunk.toString("utf8")));
  const first = `${init({ protocolVersion: 1 }, 7)}\n`;
  const second = '{"jsonrpc":"2.0","id":8,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}\n';
  stdin.write(first + second.slice(0, 20));
  const handshake = await earlyHandshake(stdin, stdout, () => ({ protocolVersion: 1 }), log);
  assert.equal(written, '{"jsonrpc":"2.0","id":7,"result":{"protocolVersion":1}}\n');
  stdin.write(second.slice(20));

  const reader = handshake.stream.readable.getReader();
  assert.deepEqual((await reader.read()).value, JSON.parse(first), "only the initialize before the SDK answers it");
  let more: unknown;
  const rest = reader.read().then((result) => (more = result.value));

  const writer = handshake.stream.writable.getWriter();
  await settled();
  assert.equal(more, undefined, "still gated");
  await writer.write({ jsonrpc: "2.0", id: 7, result: { protocolVersion: 1 } });
  await writer.write({ jsonrpc: "2.0", id: 8, result: {} });
  await rest;
  assert.deepEqual(more, JSON.parse(second), "the held message follows once initialize is answered");
  await writer.write({ jsonrpc: "2.0", id: 7, result: "again" });
  await settled();
  assert.equal(
    written,
    '{"jsonrpc":"2.0","id":7,"result":{"protocolVersion":1}}\n{"jsonrpc":"2.0","id":8,"result":{}}\n{"jsonrpc":"2.0","id":7,"result":"again"}\n',
    "only the duplicate answer is dropped",
  );
  stdin.end();
  assert.equal((await reader.read()).done, true, "the input ends with stdin");
});

test("anything but a plain initialize goes to the SDK; malformed frames are answered here", async () => {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let written = "";
  stdout.on("data", (chunk: Buffer) => (written += chunk.toString("utf8")));
  stdin.write('garbage\n{"jsonrpc":"2.0","id":3,"method":"session/new","params":{}}\n{"jsonrpc":"1.0","id":4,"method":"x"}\n');
  const handshake = await earlyHandshake(stdin, stdout, () => ({}), log);
  stdin.end();
  assert.deepEqual(await collect(handshake.stream.readable), [{ jsonrpc: "2.0", id: 3, method: "session/new", params: {} }]);
  await settled();
  const answers = written.trim().split("\n").map((line) => JSON.parse(line));
  assert.deepEqual(answers.map((a) => [a.id, a.error.code]), [[null, -32700], [4, -32600]]);
});

test("a frame over the limit is answered with its id and skipped; the next one goes through", async () => {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let written = "";
  stdout.on("data", (chunk: Buffer) => (written += chunk.toString("utf8")));
  stdin.write(`${init({ protocolVersion: 1 }, 1)}\n`);
  const handshake = await earlyHandshake(stdin, stdout, () => ({}), log, { maxFrameBytes: 1000 });
  const big = JSON.stringify({ jsonrpc: "2.0", id: "big", method: "session/prompt", params: { prompt: [{ type: "text", text: "x".repeat(5000) }] } });
  for (let at = 0; at < big.length; at += 300) stdin.write(big.slice(at, at + 300));
  stdin.write('\n{"jsonrpc":"2.0","id":2,"method":"session/new","params":{}}\n');
  const reader = handshake.stream.readable.getReader();
  await reader.read(); // the initialize
  await handshake.stream.writable.getWriter().write({ jsonrpc: "2.0", id: 1, result: {} });
  assert.deepEqual((await reader.read()).value, { jsonrpc: "2.0", id: 2, method: "session/new", params: {} });
  await settled();
  const answers = written.trim().split("\n").map((line) => JSON.parse(line));
  assert.equal(answers[1].id, "big");
  assert.equal(answers[1].error.code, -32600);
  assert.match(answers[1].error.message, /frame limit \(acp\.max_frame_mb\)/);
  stdin.end();
});

test("stdin is paused while the SDK is behind and resumed as it reads: parsed messages never pile up", async () => {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  stdout.resume();
  stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 0, method: "session/list", params: {} })}\n`);
  const handshake = await earlyHandshake(stdin, stdout, () => ({}), log);
  const lines = Array.from({ length: 200 }, (_, i) => `${JSON.stringify({ jsonrpc: "2.0", method: "note", params: { i } })}\n`).join("");
  stdin.write(lines);
  await settled();
  assert.equal(stdin.isPaused(), true, "nobody is reading: stdin waits");
  const reader = handshake.stream.readable.getReader();
  const received: unknown[] = [];
  while (received.length < 201) received.push((await reader.read()).value);
  assert.deepEqual(received.at(-1), { jsonrpc: "2.0", method: "note", params: { i: 199 } });
  stdin.end();
  assert.equal((await reader.read()).done, true);
});

test("an initialize with clientCapabilities.auth is answered early when the SDK would accept it, with the params", () => {
  const line = (auth: unknown) => JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1, clientCapabilities: { auth } } });
  const accepted = plainInitialize(line({ terminal: true }));
  assert.deepEqual(accepted?.params.clientCapabilities, { auth: { terminal: true } });
  assert.ok(plainInitialize(line({})));
  assert.equal(plainInitialize(line({ terminal: "yes" })), undefined, "left to the SDK, which rejects it");
  assert.equal(plainInitialize(line(null)), undefined);
});

// The zod schema is a strict subset of the SDK's: every line it answers early, the real SDK (the
// same handler, over an in-memory stream) also accepts and answers with the same result.
test("every initialize answered early gets the same answer from the SDK itself", async () => {
  const { initializeResponse } = await import("../../acp-server/acp/initialize-response");
  const early = table.filter(([, , expected]) => expected).map(([name, line]) => [name, line] as const);
  assert.ok(early.length >= 4);
  for (const [name, line] of early) {
    const plain = plainInitialize(line);
    assert.ok(plain, name);
    const ours = initializeResponse("t", plain.params.clientCapabilities);
    let answered!: (message: unknown) => void;
    const answer = new Promise<unknown>((resolve) => (answered = resolve));
    let incoming!: ReadableStreamDefaultController<acp.AnyMessage>;
    const stream: acp.Stream = {
      readable: new ReadableStream<acp.AnyMessage>({ start: (controller) => void (incoming = controller) }),
      writable: new WritableStream<acp.AnyMessage>({ write: (message) => answered(message) }),
    };
    const app = acp.agent({ name: "t" }).onRequest(acp.methods.agent.initialize, ({ params }) => initializeResponse("t", params.clientCapabilities));
    const connection = app.connect(stream);
    incoming.enqueue(JSON.parse(line) as acp.AnyMessage);
    assert.deepEqual(await answer, { jsonrpc: "2.0", id: plain.id, result: ours }, name);
    incoming.close();
    await connection.closed;
  }
});

// main.ts passes blocking fs reads and writes of fds 0 and 1 (BlockingIo), so neither stream is
// built before the answer. A scripted BlockingIo stands in for the descriptors here: each read
// returns the next scripted chunk (or throws it, as a non-blocking descriptor throws EAGAIN).
function scriptedIo(reads: (string | Error)[], writeSizes: (number | Error)[] = []) {
  const written: string[] = [];
  const io = {
    read(buffer: Buffer): number {
      const next = reads.shift();
      if (next === undefined) return 0;
      if (next instanceof Error) throw next;
      return buffer.write(next, "utf8");
    },
    write(data: Buffer): number {
      const size = writeSizes.shift() ?? data.length;
      if (size instanceof Error) throw size;
      written.push(data.subarray(0, size).toString("utf8"));
      return Math.min(size, data.length);
    },
  };
  return { io, written };
}

const eagain = () => Object.assign(new Error("EAGAIN: resource temporarily unavailable, read"), { code: "EAGAIN" });

/** Getters that record when the handshake first asks for each stream. */
function lazyStreams() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let output = "";
  stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const asked: string[] = [];
  return {
    stdin,
    output: () => output,
    asked,
    getStdin: () => (asked.push("stdin"), stdin),
    getStdout: () => (asked.push("stdout"), stdout),
  };
}

test("blocking reads: a first frame in pieces is answered with a blocking write before either stream is built", async () => {
  const first = `${init({ protocolVersion: 1 }, 5)}\n`;
  const next = '{"jsonrpc":"2.0","id":6,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}\n';
  const { io, written } = scriptedIo([first.slice(0, 10), first.slice(10) + next.slice(0, 15)]);
  const streams = lazyStreams();
  const seenAtAnswer: string[][] = [];
  const handshake = await earlyHandshake(streams.getStdin, streams.getStdout, () => (seenAtAnswer.push([...streams.asked]), { protocolVersion: 1 }), log, { blocking: io });
  assert.deepEqual(seenAtAnswer, [[]], "no stream had been built when the answer was made");
  assert.deepEqual(written, ['{"jsonrpc":"2.0","id":5,"result":{"protocolVersion":1}}\n']);
  assert.deepEqual(streams.asked, ["stdin"], "stdin is listened to after the answer; stdout is built when first needed");
  streams.stdin.write(next.slice(15));
  const reader = handshake.stream.readable.getReader();
  assert.deepEqual((await reader.read()).value, JSON.parse(first));
  await handshake.stream.writable.getWriter().write({ jsonrpc: "2.0", id: 5, result: { protocolVersion: 1 } });
  assert.deepEqual((await reader.read()).value, JSON.parse(next), "the frame split between a blocking read and the stream arrives whole");
  await handshake.stream.writable.getWriter().write({ jsonrpc: "2.0", id: 6, result: {} });
  await settled();
  assert.equal(streams.output(), '{"jsonrpc":"2.0","id":6,"result":{}}\n', "the SDK's own initialize answer is dropped; the rest goes to the stream");
  streams.stdin.end();
  assert.equal((await reader.read()).done, true);
});

test("blocking reads: a read that fails mid-frame (EAGAIN) hands over to the stream with nothing lost", async () => {
  const first = `${init({ protocolVersion: 1 }, "x")}\n`;
  const { io, written } = scriptedIo([first.slice(0, 25), eagain(), "never read"]);
  const streams = lazyStreams();
  const pending = earlyHandshake(streams.getStdin, streams.getStdout, () => ({}), log, { blocking: io });
  await settled();
  assert.deepEqual(streams.asked, ["stdin"], "the stream took over before the first line was complete");
  streams.stdin.write(first.slice(25));
  const handshake = await pending;
  assert.deepEqual(written, ['{"jsonrpc":"2.0","id":"x","result":{}}\n'], "the answer still goes out with a blocking write");
  const reader = handshake.stream.readable.getReader();
  assert.deepEqual((await reader.read()).value, JSON.parse(first));
  streams.stdin.end();
});

test("blocking reads: the end of input before any frame builds no stream and ends the SDK's input", async () => {
  const { io, written } = scriptedIo([]);
  const streams = lazyStreams();
  const handshake = await earlyHandshake(streams.getStdin, streams.getStdout, () => ({}), log, { blocking: io });
  assert.deepEqual(await collect(handshake.stream.readable), []);
  assert.deepEqual(written, []);
  assert.deepEqual(streams.asked, []);
});

test("blocking write: what a failing write leaves of the answer goes to the stream, once and in order", async () => {
  const first = `${init({ protocolVersion: 1 }, 9)}\n`;
  const { io, written } = scriptedIo([first], [12, eagain()]);
  const streams = lazyStreams();
  const handshake = await earlyHandshake(streams.getStdin, streams.getStdout, () => ({ protocolVersion: 1 }), log, { blocking: io });
  await settled();
  assert.equal(written.join("") + streams.output(), '{"jsonrpc":"2.0","id":9,"result":{"protocolVersion":1}}\n');
  assert.equal(written.join(""), '{"jsonrpc":"', "the blocking write took 12 bytes");
  assert.deepEqual((await handshake.stream.readable.getReader().read()).value, JSON.parse(first));
  streams.stdin.end();
});

test("blocking reads: the error reply to an oversized frame and the early answer after it keep their order", async () => {
  const big = JSON.stringify({ jsonrpc: "2.0", id: "big", method: "session/prompt", params: { text: "x".repeat(500) } });
  const { io, written } = scriptedIo([`${big}\n${init({ protocolVersion: 1 }, 2)}\n`]);
  const streams = lazyStreams();
  const handshake = await earlyHandshake(streams.getStdin, streams.getStdout, () => ({}), log, { blocking: io, maxFrameBytes: 300 });
  await settled();
  assert.deepEqual(written, [], "stdout's stream already carried a reply: the answer follows it there");
  const answers = streams.output().trim().split("\n").map((line) => JSON.parse(line) as { id: unknown; error?: { code: number } });
  assert.deepEqual(answers.map((a) => [a.id, a.error?.code]), [["big", -32600], [2, undefined]]);
  assert.deepEqual((await handshake.stream.readable.getReader().read()).value, JSON.parse(init({ protocolVersion: 1 }, 2)));
  streams.stdin.end();
});
