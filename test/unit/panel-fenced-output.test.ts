// The panel's reading of command output: the agent's fenced text (one code fence plus an
// optional footer line, as acp-server/tools/terminal.ts writes it) and raw terminal output.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fenced } from "../../acp-server/tools/terminal";
import { parseFencedOutput, type FencedOutput } from "../../webview-ui/lib/fenced-output";
import { terminalText } from "../../common/terminal-text";

test("one fenced block plus an optional footer: the inside and the footer", () => {
  const table: [string, FencedOutput | undefined][] = [
    ["```\nhello\n```\nexit 1", { body: "hello", footer: "exit 1" }],
    ["```\nhello\n```", { body: "hello" }],
    ["```\nhello\n```\n", { body: "hello" }],
    ["```\r\nhello\r\n```\r\nexit code 0\r\n", { body: "hello", footer: "exit code 0" }],
    ["```\n\n```", { body: "" }],
    ["```\n```\nexit code 0", { body: "", footer: "exit code 0" }],
    ["```\n  \n\n```\ncancelled", { body: "", footer: "cancelled" }],
    ["```bash\nls -la\n```", { body: "ls -la", language: "bash" }],
    ["~~~\na\n  b\n~~~\ntimed out after 180s", { body: "a\n  b", footer: "timed out after 180s" }],
    ["````\nuse ``` here\n```\n````\nexit code 0", { body: "use ``` here\n```", footer: "exit code 0" }],
    ["```\nline one\n\nline three\n``` \n  exit code 3  ", { body: "line one\n\nline three", footer: "exit code 3" }],
    // Not one block plus a footer: shown as it is.
    ["plain output", undefined],
    ["", undefined],
    ["```\nnever closed", undefined],
    ["```\na\n```\nfooter\nmore", undefined],
    ["```\na\n```\n\nfooter", undefined],
    ["```\na\n```\n```\nb\n```", undefined],
    ["text before\n```\na\n```", undefined],
    ["``\na\n``", undefined],
    ["~~~\na\n```\n", undefined],
    ["``` a`b\nx\n```", undefined],
  ];
  for (const [text, expected] of table) assert.deepEqual(parseFencedOutput(text), expected, JSON.stringify(text));
});

test("round trip with the agent's fenced()", () => {
  const cases: [string, string | undefined][] = [
    ["hello\n", "exit code 1"],
    ["", "exit code 0"],
    ["no newline at end", undefined],
    ["has ``` and ```` inside\n", "killed by SIGTERM"],
  ];
  for (const [output, footer] of cases) {
    const parsed = parseFencedOutput(fenced(output, footer));
    assert.deepEqual(parsed, { body: output.replace(/\n$/, ""), ...(footer ? { footer } : {}) }, output);
  }
});

test("terminal text: escape sequences dropped, carriage-return redraws show their last state", () => {
  const table: [string, string][] = [
    ["plain\n", "plain\n"],
    ["\x1b[31mred\x1b[0m and \x1b[1;32mbold green\x1b[m\n", "red and bold green\n"],
    ["\x1b]0;title\x07after", "after"],
    ["crlf\r\nlines\r\n", "crlf\nlines\n"],
    ["10%\r50%\r100%\ndone", "100%\ndone"],
    ["abcdef\rXY\n", "XYcdef\n"],
  ];
  for (const [raw, expected] of table) assert.equal(terminalText(raw), expected, JSON.stringify(raw));
});
