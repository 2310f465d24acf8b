// A link in a reply on the terminal shows where it goes, even on a terminal that takes hyperlinks
// (FORCE_HYPERLINK=1 makes marked-terminal's detection say yes): never an OSC 8 hyperlink whose
// shown text could name one address and lead to another.
import assert from "node:assert/strict";
import { test } from "node:test";
import { stripVTControlCharacters } from "node:util";

test("a link's address is printed after its text, and no OSC 8 hyperlink is written", async () => {
  process.env.FORCE_HYPERLINK = "1";
  const { markdownStream } = await import("../../acp-server/cli/markdown-stream");
  for (const color of [true, false]) {
    const stream = markdownStream({ width: 100, color });
    const out = stream.push("See [https://github.com/org/repo](https://evil.example/phish) and <https://plain.example/>.\n\n") + stream.end();
    assert.ok(!out.includes("\x1b]8;"), JSON.stringify(out));
    assert.match(stripVTControlCharacters(out), /See https:\/\/github\.com\/org\/repo \(https:\/\/evil\.example\/phish\) and https:\/\/plain\.example\/\./, JSON.stringify(out));
  }
});
