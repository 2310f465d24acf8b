// The bounded frame splitter and the envelope check, on their own.
import assert from "node:assert/strict";
import { test } from "node:test";
import { checkEnvelope, checkFrame, oversizeOutcome, topLevelKeys, trailingId } from "../../acp-server/transport/frame-envelope";
import { type FrameEvent, FrameSplitter } from "../../acp-server/util/ndjson-lines";

function split(chunks: string[], limit: number): FrameEvent[] {
  const events: FrameEvent[] = [];
  const splitter = new FrameSplitter(() => limit);
  for (const chunk of chunks) splitter.push(Buffer.from(chunk), (event) => events.push(event));
  splitter.end((event) => events.push(event));
  return events;
}

test("frames split on \\n (and \\r\\n) across any chunking; blank lines are skipped; the last line needs no newline", () => {
  const text = 'a\r\n\n  \nbb\n{"x":1}\nlast';
  const expected = [{ kind: "line", text: "a" }, { kind: "line", text: "bb" }, { kind: "line", text: '{"x":1}' }, { kind: "line", text: "last" }];
  for (let size = 1; size <= text.length; size++) {
    const chunks = text.match(new RegExp(`[^]{1,${size}}`, "g"))!;
    assert.deepEqual(split(chunks, 100), expected, `chunks of ${size}`);
  }
});

test("a frame over the limit is reported once with its head, then skipped up to its newline", () => {
  const events = split(["ok\n", "x".repeat(30), "y".repeat(30), "z".repeat(30), "\nnext\n"], 50);
  assert.deepEqual(
    events.map((e) => (e.kind === "line" ? e.text : `oversize:${e.head.length}`)),
    ["ok", "oversize:60", "next"],
  );
  // Exactly at the limit is fine; one byte more is not.
  assert.deepEqual(split(["12345\n"], 5), [{ kind: "line", text: "12345" }]);
  assert.equal(split(["123456\n"], 5)[0].kind, "oversize");
  // An endless line holds nothing: the splitter's buffer stays empty while it skips.
  const splitter = new FrameSplitter(() => 10);
  let oversize = 0;
  let tail = "";
  for (let i = 0; i < 1000; i++) splitter.push(Buffer.alloc(1000, 120), () => oversize++);
  assert.equal(splitter.buffered, 0);
  assert.equal(oversize, 0, "reported when it ends");
  splitter.push(Buffer.from(',"id":"late"}\r\n{"ok":1}\n'), (event) => {
    if (event.kind === "oversize") {
      oversize++;
      tail = event.tail;
    }
  });
  assert.equal(oversize, 1);
  assert.ok(tail.endsWith(',"id":"late"}') && tail.length >= 1000, tail.slice(-40));
});

test("splitting is linear: many small chunks of one big frame cost no rescans", () => {
  const splitter = new FrameSplitter(() => 64 * 1024 * 1024);
  const chunk = Buffer.alloc(16, 97);
  for (let i = 0; i < 200_000; i++) splitter.push(chunk, () => assert.fail("no line yet"));
  assert.equal(splitter.buffered, 3_200_000);
  let length = 0;
  splitter.push(Buffer.from("\n"), (event) => (length = event.kind === "line" ? event.text.length : -1));
  assert.equal(length, 3_200_000);
});

const envelopeCases: [string, unknown, { id: unknown; code: number } | "ok"][] = [
  ["a request", { jsonrpc: "2.0", id: 1, method: "m", params: {} }, "ok"],
  ["a notification with array params", { jsonrpc: "2.0", method: "m", params: [] }, "ok"],
  ["a response", { jsonrpc: "2.0", id: 3, result: null }, "ok"],
  ["jsonrpc missing", { id: 1, method: "m" }, { id: 1, code: -32600 }],
  ['jsonrpc "1.0"', { jsonrpc: "1.0", id: "a", method: "m" }, { id: "a", code: -32600 }],
  ["jsonrpc a number", { jsonrpc: 2, id: 2, method: "m" }, { id: 2, code: -32600 }],
  ["method a number", { jsonrpc: "2.0", id: 4, method: 4 }, { id: 4, code: -32600 }],
  ["params a string", { jsonrpc: "2.0", id: 5, method: "m", params: "x" }, { id: 5, code: -32600 }],
  ["params null", { jsonrpc: "2.0", id: 6, method: "m", params: null }, { id: 6, code: -32600 }],
  ["no method, no result", { jsonrpc: "2.0", id: 7 }, { id: 7, code: -32600 }],
  ["an object id", { jsonrpc: "2.0", id: {}, method: "m" }, { id: null, code: -32600 }],
  ["a batch", [{ jsonrpc: "2.0", id: 8, method: "m" }], { id: null, code: -32600 }],
  ["a scalar", 42, { id: null, code: -32600 }],
];
for (const [name, value, expected] of envelopeCases) {
  test(`envelope: ${name}`, () => {
    const checked = checkEnvelope(value);
    if (expected === "ok") return assert.equal(checked.ok, true);
    assert.equal(checked.ok, false);
    if (!checked.ok) assert.deepEqual([checked.reply.id, checked.reply.error.code], [expected.id, expected.code]);
  });
}

test("a line that is not JSON is a parse error with id null", () => {
  const checked = checkFrame("{nope");
  assert.ok(!checked.ok && checked.reply.id === null && checked.reply.error.code === -32700);
});

test("the id of an oversized frame is found at the top level of its head, never inside params", () => {
  assert.equal(topLevelKeys('{"jsonrpc":"2.0","id":"abc","method":"session/prompt","params":{"x').get("id"), "abc");
  assert.equal(topLevelKeys('{ "id" : 12 , "method":"m"').get("id"), 12);
  assert.equal(topLevelKeys('{"method":"m","params":{"id":5,"text":"aaaa').has("id"), false);
  assert.equal(topLevelKeys('{"method":"m","params":{"text":"say \\"id\\": 9').has("id"), false);
  const request = oversizeOutcome('{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{', "", 2 * 1024 * 1024);
  assert.ok("reply" in request && request.reply.id === 7 && /2 MB frame limit/.test(request.reply.error.message));
  const response = oversizeOutcome('{"jsonrpc":"2.0","id":3,"result":{"content":"', "", 1024);
  assert.ok("response" in response && response.response.id === 3);
  const anonymous = oversizeOutcome("xxxxxxxx", "xxxxxxxx", 1024);
  assert.ok("reply" in anonymous && anonymous.reply.id === null);
  // Clients that write the id last: found at the end, but only as the outermost object's key.
  const late = oversizeOutcome('{"jsonrpc":"2.0","method":"session/prompt","params":{"prompt":[{"text":"aaa', 'aaa"}]},"id":"last"}', 1024);
  assert.ok("reply" in late && late.reply.id === "last");
  assert.equal(trailingId('aaa"}],"id":9}}'), undefined, "a nested id closes twice");
  assert.equal(trailingId('say \\"id\\": 9}"}'), undefined);
  assert.equal(trailingId(', "id" : 12 } '), 12);
});
