import assert from "node:assert/strict";
import { test } from "node:test";
import { extendBlocks, splitBlocks } from "../../webview-ui/lib/markdown-blocks";

const texts = (text: string) => splitBlocks(text).map((b) => b.text);

test("blocks end at blank lines", () => {
  assert.deepEqual(texts("one\ntwo\n\nthree\n\n\n- a\n- b"), ["one\ntwo", "three", "- a\n- b"]);
});

test("code fences keep their blank lines and report whether they are closed", () => {
  const blocks = splitBlocks("intro\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n\nafter");
  assert.deepEqual(
    blocks.map((b) => [b.text, b.closed]),
    [
      ["intro", true],
      ["```ts\nconst a = 1;\n\nconst b = 2;\n```", true],
      ["after", true],
    ],
  );
  const open = splitBlocks("text\n\n```py\nprint(1)\n\nprint(2)");
  assert.deepEqual(open.map((b) => b.closed), [true, false]);
  // A shorter or different fence does not close it.
  assert.equal(splitBlocks("~~~~\na\n~~~\nb").length, 1);
  assert.equal(splitBlocks("~~~~\na\n~~~\nb")[0].closed, false);
});

test("indented continuation lines stay with the block before them", () => {
  assert.deepEqual(texts("1. item\n\n   more about it\n\nnext"), ["1. item\n\n   more about it", "next"]);
});

test("offsets point at each block's first line", () => {
  const text = "a\n\nbb\n\n\nccc";
  for (const block of splitBlocks(text)) assert.equal(text.slice(block.start, block.start + block.text.length), block.text);
});

test("extending a streamed text re-splits only its last block and keeps the earlier block objects", () => {
  const full = "Intro paragraph.\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n\n1. first\n\n   continued\n2. second\n\nDone.";
  let previous: { text: string; blocks: ReturnType<typeof splitBlocks> } | undefined;
  for (let end = 1; end <= full.length; end += 3) {
    const text = full.slice(0, end);
    const blocks = extendBlocks(previous, text);
    assert.deepEqual(blocks, splitBlocks(text), `at ${end}`);
    if (previous && previous.blocks.length > 1) assert.equal(blocks[0], previous.blocks[0]);
    previous = { text, blocks };
  }
  assert.deepEqual(extendBlocks(previous, "something else"), splitBlocks("something else"));
});
