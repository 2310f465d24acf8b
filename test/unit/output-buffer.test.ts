import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { OutputBuffer, tailOf, truncateMiddle } from "../../acp-server/tools/output-buffer";

describe("OutputBuffer", () => {
  it("keeps everything under the limit", () => {
    const buffer = new OutputBuffer(100);
    buffer.append("hello ");
    buffer.append(Buffer.from("world"));
    assert.equal(buffer.text(), "hello world");
    assert.equal(buffer.truncated, false);
    assert.equal(buffer.totalBytes, 11);
  });

  it("keeps exactly the limit without a marker", () => {
    const buffer = new OutputBuffer(10);
    buffer.append("0123456789");
    assert.equal(buffer.text(), "0123456789");
    assert.equal(buffer.truncated, false);
  });

  it("keeps head and tail with an explicit omission marker", () => {
    const buffer = new OutputBuffer(10);
    for (const char of "abcdefghijklmnopqrstuvwxyz") buffer.append(char);
    assert.equal(buffer.truncated, true);
    assert.equal(buffer.totalBytes, 26);
    assert.equal(buffer.text(), "abcde\n[... 16 bytes omitted ...]\nvwxyz");
  });

  it("handles one chunk much larger than the limit", () => {
    const buffer = new OutputBuffer(8);
    buffer.append("HEAD" + "x".repeat(10_000) + "TAIL");
    assert.equal(buffer.text(), "HEAD\n[... 10000 bytes omitted ...]\nTAIL");
  });

  it("respects the head ratio", () => {
    const buffer = new OutputBuffer(10, 0.2);
    buffer.append("0123456789ab cdefghij");
    // The tail's first word may have started before the cut, so it goes with the middle.
    assert.equal(buffer.text(), "01\n[... 19 bytes omitted ...]\n");
  });

  it("drops a word cut at either edge, so a token is never shown in part", () => {
    const token = "ghp_" + "aBcD1234eFgH5678iJkL9012mNoP3456qRsT";
    const buffer = new OutputBuffer(60);
    buffer.append(`start ${token} ${"filler ".repeat(50)}${token} end`);
    const text = buffer.text();
    assert.ok(!/[A-Za-z0-9]{8,}\n\[\.\.\./.test(text), `no partial word before the marker: ${text}`);
    assert.ok(!/omitted \.\.\.\]\n[A-Za-z0-9_]{8,}/.test(text), `no partial word after the marker: ${text}`);
    for (let length = 8; length < token.length; length++) {
      for (let at = 0; at + length <= token.length; at += 7) {
        const fragment = token.slice(at, at + length);
        if (text.includes(fragment)) assert.ok(fragment.length < 8, `fragment ${fragment} in ${text}`);
      }
    }
  });

  it("never cuts a multi-byte character in half", () => {
    // "é" is 2 bytes, "€" 3 bytes: the cut points land inside them.
    const buffer = new OutputBuffer(6);
    buffer.append("ab€" + "-".repeat(20) + "€é");
    const text = buffer.text();
    assert.ok(!text.includes("\uFFFD"), `no replacement characters in ${JSON.stringify(text)}`);
    assert.ok(text.startsWith("ab\n[... "));
    // The last 3 bytes are the final byte of "€" plus "é": only "é" is shown.
    assert.ok(text.endsWith(" omitted ...]\né"), JSON.stringify(text));
    // Every byte is either shown or counted as omitted.
    const omitted = Number(/\[\.\.\. (\d+) bytes omitted/.exec(text)?.[1]);
    const shown = Buffer.byteLength(text.replace(/\n\[\.\.\. \d+ bytes omitted \.\.\.\]\n/, ""));
    assert.equal(omitted + shown, buffer.totalBytes);
  });

  it("keeps streamed multi-byte text intact when not truncated", () => {
    const buffer = new OutputBuffer(100);
    const bytes = Buffer.from("héllo wörld €");
    for (let i = 0; i < bytes.length; i++) buffer.append(bytes.subarray(i, i + 1));
    assert.equal(buffer.text(), "héllo wörld €");
  });

  it("rejects a non-positive limit", () => {
    assert.throws(() => new OutputBuffer(0), RangeError);
  });
});

describe("truncateMiddle", () => {
  it("returns short text unchanged", () => {
    assert.deepEqual(truncateMiddle("short", 10), { text: "short", truncated: false });
  });

  it("keeps head and tail and counts the omitted characters", () => {
    const result = truncateMiddle("0123456789abcdefghij", 10);
    assert.equal(result.truncated, true);
    assert.equal(result.text, "01234\n[... 10 characters omitted ...]\nfghij");
  });

  it("can weight the tail", () => {
    const result = truncateMiddle("0123456789ab cdefghij", 10, 0.2);
    assert.equal(result.text, "01\n[... 11 characters omitted ...]\ncdefghij");
  });

  it("drops the partial words at the cut (a secret cut in two matches no rule)", () => {
    const key = "sk-ant-api03-" + "Ab3dEfGh1jKlMnOp2rStUvWx4z5678AbCdEfGh9J";
    const result = truncateMiddle(`run ${key} ok ${"x ".repeat(100)} then ${key} done`, 40);
    assert.ok(!result.text.includes(key.slice(13, 21)), result.text);
    assert.ok(!result.text.includes(key.slice(-8)), result.text);
  });

  it("does not split surrogate pairs", () => {
    const result = truncateMiddle("a😀" + "-".repeat(10) + "😀b", 4);
    assert.ok(!/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(result.text), "no lone high surrogate");
    assert.ok(!/(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(result.text), "no lone low surrogate");
  });
});

describe("tailOf", () => {
  it("keeps the last characters", () => {
    assert.equal(tailOf("abcdef", 3), "def");
    assert.equal(tailOf("ab", 3), "ab");
  });

  it("does not start with half a surrogate pair", () => {
    assert.equal(tailOf("x😀y", 2), "y");
  });
});
