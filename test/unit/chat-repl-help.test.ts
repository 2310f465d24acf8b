// The REPL's /help: command names and keys highlighted when colour is on, plain text when it is off.
import assert from "node:assert/strict";
/* eslint-disable no-control-regex -- colours are checked as their escape codes */
import { test } from "node:test";
import { replHelp } from "../../acp-server/cli/chat-repl";
import { palette } from "../../acp-server/cli/terminal-colour";

test("/help highlights every command and key in colour, and is plain without colour", () => {
  const coloured = replHelp(palette(true));
  for (const name of ["/exit", "/new", "/sessions", "/resume", "/takeover", "/history", "/expand", "/help", "Ctrl-D", "Ctrl-R", "Ctrl-C", "Ctrl-S", "Ctrl-O"]) {
    assert.ok(coloured.includes(`\x1b[36m${name}\x1b[39m`), `${name} is highlighted`);
  }
  const plain = replHelp(palette(false));
  assert.doesNotMatch(plain, /\x1b/);
  assert.equal(plain, coloured.replace(/\x1b\[\d+m/g, ""), "the same words either way");
  assert.match(plain, /^Commands here: \/exit \(or Ctrl-D\)/);
});
