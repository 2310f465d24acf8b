// Pure pieces of the session index: free text → FTS4 queries, BM25, and what a message
// becomes in the index.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { bm25, toMatchQueries } from "../../acp-server/sessions/fts-query";
import { countWords, indexedMessage, MAX_INDEXED_CHARS } from "../../acp-server/sessions/message-text";

describe("toMatchQueries", () => {
  const cases: [string, ReturnType<typeof toMatchQueries>][] = [
    ["docker", { all: '"docker"', any: undefined }],
    ["docker compose", { all: '"docker" "compose"', any: '"docker" OR "compose"' }],
    ['"exact phrase" other', { all: '"exact phrase" "other"', any: '"exact phrase" OR "other"' }],
    ["foo-bar", { all: '"foo bar"', any: undefined }],
    ['foo"bar', { all: '"foo bar"', any: undefined }],
    ["AND OR (", { all: '"AND" "OR"', any: '"AND" OR "OR"' }],
    ["pars*", { all: '"pars*"', any: undefined }],
    ["naïve 日本語", { all: '"naïve" "日本語"', any: '"naïve" OR "日本語"' }],
    ['unclosed "quote here', { all: '"unclosed" "quote here"', any: '"unclosed" OR "quote here"' }],
    ["(( )) * -- ''", undefined],
    ["", undefined],
  ];
  for (const [input, expected] of cases) {
    test(JSON.stringify(input), () => assert.deepEqual(toMatchQueries(input), expected));
  }

  test("long input is cut to 16 terms", () => {
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`).join(" ");
    assert.equal(toMatchQueries(words)?.all.split(" ").length, 16);
  });
});

describe("bm25", () => {
  /** matchinfo('pcnax') for one phrase, one column. */
  const blob = (rows: number, average: number, hits: number, hitsAll: number, withHits: number) =>
    new Uint8Array(new Uint32Array([1, 1, rows, average, hits, hitsAll, withHits]).buffer);

  test("more hits, shorter messages and rarer terms score higher", () => {
    assert.ok(bm25(blob(1000, 50, 5, 100, 20), 50) > bm25(blob(1000, 50, 1, 100, 20), 50));
    assert.ok(bm25(blob(1000, 50, 2, 100, 20), 20) > bm25(blob(1000, 50, 2, 100, 20), 400));
    assert.ok(bm25(blob(1000, 50, 2, 10, 5), 50) > bm25(blob(1000, 50, 2, 900, 800), 50));
    assert.ok(bm25(blob(1000, 50, 2, 1000, 1000), 50) > 0, "a term in every row still counts a little");
    assert.equal(bm25(blob(1000, 50, 0, 100, 20), 50), 0);
  });
});

describe("indexedMessage", () => {
  test("user text and images: [image] in the text, image bytes never stored", () => {
    const data = Buffer.alloc(300, 7).toString("base64");
    const indexed = indexedMessage({ role: "user", content: [{ type: "text", text: "see this" }, { type: "image", mimeType: "image/png", data }] });
    assert.equal(indexed.text, "see this\n[image]");
    assert.deepEqual(JSON.parse(indexed.content!), [{ type: "text", text: "see this" }, { type: "image", mimeType: "image/png", bytes: 300 }]);
    assert.ok(!indexed.content!.includes(data.slice(0, 20)));
  });

  test("content that is just the text is not stored twice", () => {
    assert.equal(indexedMessage({ role: "user", content: [{ type: "text", text: "hi" }] }).content, undefined);
    assert.equal(indexedMessage({ role: "tool", toolCallId: "c", name: "read_file", content: "data" }).content, undefined);
    assert.equal(indexedMessage({ role: "assistant", content: "plain" }).content, undefined);
  });

  test("assistant tool calls are searchable by name and (short) arguments", () => {
    const long = JSON.stringify({ path: "src/a.ts", content: "x".repeat(1_000) });
    const indexed = indexedMessage({ role: "assistant", content: "Writing it.", toolCalls: [{ id: "1", name: "write_file", arguments: long }] });
    assert.match(indexed.text, /^Writing it\.\n\[write_file\] \{"path":"src\/a\.ts"/);
    assert.ok(indexed.text.length < 400);
    assert.equal(indexed.content, '"Writing it."');
    assert.deepEqual(JSON.parse(indexed.toolCalls!)[0].arguments, long);
  });

  test("huge tool output is cut for the index; the content keeps it whole", () => {
    const output = "line\n".repeat(10_000);
    const indexed = indexedMessage({ role: "tool", toolCallId: "c", name: "terminal", content: output });
    assert.equal(indexed.text.length, MAX_INDEXED_CHARS);
    assert.equal(JSON.parse(indexed.content!), output);
  });

  test("countWords counts runs of letters and digits", () => {
    assert.equal(countWords(""), 0);
    assert.equal(countWords("foo-bar baz_qux 42!"), 5);
    assert.equal(countWords("naïve café"), 2);
  });
});
