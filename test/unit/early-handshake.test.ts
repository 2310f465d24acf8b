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
];
for (const [name, line, expected] of table) {
  test(`plainInitialize: ${name}`, () => assert.equal(plainInitialize(line) !== undefined, expected));
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = "";
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) text += Buffer.from(chunk).toString("utf8");
  return text;
}

test("answers initialize at once; the SDK gets that line, then the rest once it has answered it", async () => {
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

  const reader = handshake.input.getReader();
  assert.equal(Buffer.from((await reader.read()).value!).toString("utf8"), first, "only the initialize line before the SDK answers it");
  let more = "";
  const rest = (async () => {
    while (Buffer.byteLength(more) < Buffer.byteLength(second)) more += Buffer.from((await reader.read()).value!).toString("utf8");
  })();

  // The SDK's own answer arrives in pieces, followed by other output in the same write.
  const writer = handshake.output.getWriter();
  await writer.write(Buffer.from('{"jsonrpc":"2.0","id":7,"res'));
  await settled();
  assert.equal(more, "", "still gated");
  await writer.write(Buffer.from('ult":{"protocolVersion":1}}\n{"jsonrpc":"2.0","id":8,"result":{}}\n'));
  await settled();
  await rest;
  assert.equal(more, second, "the held bytes follow once initialize is answered");
  await writer.write(Buffer.from('{"jsonrpc":"2.0","id":7,"result":"again"}\n'));
  await settled();
  assert.equal(
    written,
    '{"jsonrpc":"2.0","id":7,"result":{"protocolVersion":1}}\n{"jsonrpc":"2.0","id":8,"result":{}}\n{"jsonrpc":"2.0","id":7,"result":"again"}\n',
    "only the duplicate answer is dropped",
  );
  stdin.end();
  assert.equal((await reader.read()).done, true, "the input ends with stdin");
});

test("anything but a plain initialize is left to the SDK untouched", async () => {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let written = "";
  stdout.on("data", (chunk: Buffer) => (written += chunk.toString("utf8")));
  stdin.write("garbage\n");
  const handshake = await earlyHandshake(stdin, stdout, () => ({}), log);
  assert.equal(written, "");
  const writer = handshake.output.getWriter();
  await writer.write(Buffer.from('{"jsonrpc":"2.0","id":null,"error":{"code":-32700}}\n'));
  await settled();
  assert.equal(written, '{"jsonrpc":"2.0","id":null,"error":{"code":-32700}}\n');
  stdin.end();
  assert.equal(await collect(handshake.input), "garbage\n");
});
