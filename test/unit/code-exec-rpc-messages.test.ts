// execute_code's request lines are untrusted (the model wrote the program): each is checked
// before anything acts on it, and every bad one yields the error its sender gets back.
import assert from "node:assert/strict";
import { test } from "node:test";
import { MAX_REQUEST_BYTES, parseRequestLine } from "../../acp-server/tools/code-exec/rpc-messages";

test("request lines: good ones parse, bad ones become errors (with the id when one can be read)", () => {
  assert.deepEqual(parseRequestLine('{"id":1,"tool":"read_file","args":{"path":"a"}}'), { request: { id: 1, tool: "read_file", args: { path: "a" } } });
  assert.deepEqual(parseRequestLine('{"id":2,"tool":"read_file"}'), { request: { id: 2, tool: "read_file", args: {} } });
  const cases: [string, number | null, RegExp][] = [
    ["not json", null, /not valid JSON/],
    ["[1,2]", null, /malformed/],
    ['{"id":3,"tool":"read_file","args":[1]}', 3, /malformed/],
    ['{"id":4,"tool":"","args":{}}', 4, /malformed/],
    ['{"id":-1,"tool":"x","args":{}}', -1, /malformed/],
    ['{"id":5,"tool":"x","args":{},"__proto__":{"polluted":true}}', 5, /malformed/],
    [`{"id":6,"tool":"${"x".repeat(MAX_REQUEST_BYTES)}"}`, null, /too large/],
  ];
  for (const [line, id, error] of cases) {
    const parsed = parseRequestLine(line);
    assert.ok(!("request" in parsed), line.slice(0, 60));
    assert.equal(parsed.id, id, line.slice(0, 60));
    assert.match(parsed.error, error, line.slice(0, 60));
  }
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});
