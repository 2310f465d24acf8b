// A finished tool step's one line says what it amounted to, read from the result the model got.
import assert from "node:assert/strict";
import { test } from "node:test";
import { toolStepSummary } from "../../acp-server/cli/tool-step-summary";

test("lines read, results found, matches, a failing exit code; nothing for what is not countable", () => {
  const table: [unknown, string][] = [
    [{ path: "a.ts", content: "…", total_lines: 120, offset: 1, lines_returned: 120 }, " (120 lines)"],
    [{ path: "a.ts", content: "…", total_lines: 900, offset: 1, lines_returned: 500 }, " (500 of 900 lines)"],
    [{ total_lines: 1, lines_returned: 1 }, " (1 line)"],
    ['5 results from DuckDuckGo for "q":\n\n1. …', " — 5 results"],
    ['1 result from Brave for "q":', " — 1 result"],
    [{ matches: [{}, {}], total: 2, truncated: false }, " — 2 matches"],
    [{ output: "FAIL", exit_code: 1 }, " — exit 1"],
    [{ output: "ok", exit_code: 0 }, ""],
    ["some text", ""],
    [undefined, ""],
    [{ written: true }, ""],
  ];
  for (const [raw, expected] of table) assert.equal(toolStepSummary(raw), expected, JSON.stringify(raw));
});
