import assert from "node:assert/strict";
import { test } from "node:test";
import { matchCommands, mentionAt, moveSelection, insertMention, slashQuery } from "../../webview-ui/lib/completion";

const commands = [
  { name: "help", description: "List the commands" },
  { name: "context", description: "Show what fills the context window" },
  { name: "model", description: "Switch the model" },
  { name: "memory", description: "Show or edit memory" },
];

test("a slash query is only the command name at the start of the box", () => {
  assert.equal(slashQuery("/"), "");
  assert.equal(slashQuery("/mo"), "mo");
  assert.equal(slashQuery("/model gpt"), undefined);
  assert.equal(slashQuery("say /mo"), undefined);
});

test("commands match by prefix, then substring, then description", () => {
  assert.deepEqual(matchCommands(commands, "m").map((c) => c.name), ["memory", "model"]);
  assert.deepEqual(matchCommands(commands, "text").map((c) => c.name), ["context"]);
  assert.deepEqual(matchCommands(commands, "window").map((c) => c.name), ["context"]);
  assert.equal(matchCommands(commands, "").length, 4);
  assert.deepEqual(matchCommands(commands, "zzz"), []);
});

test("a mention is the @word ending at the caret", () => {
  assert.deepEqual(mentionAt("look at @src/ma", 15), { query: "src/ma", start: 8 });
  assert.deepEqual(mentionAt("@", 1), { query: "", start: 0 });
  assert.equal(mentionAt("mail me@example.com", 19), undefined);
  assert.equal(mentionAt("@done and more", 14), undefined);
});

test("picking a mention keeps the word in the sentence, completed to the file name", () => {
  assert.deepEqual(insertMention("Look at @ap and fix it", 8, 11, "app.js"), { text: "Look at @app.js and fix it", caret: 16 });
  assert.deepEqual(insertMention("Look at @ap", 8, 11, "app.js"), { text: "Look at @app.js ", caret: 16 });
  assert.deepEqual(insertMention("@foo", 0, 4, "foo.ts"), { text: "@foo.ts ", caret: 8 });
  // The caret in the middle of the query: what follows the caret is kept after the name.
  assert.deepEqual(insertMention("see @rea now", 4, 8, "README.md"), { text: "see @README.md now", caret: 15 });
});

test("selection wraps around", () => {
  assert.equal(moveSelection(0, -1, 3), 2);
  assert.equal(moveSelection(2, 1, 3), 0);
  assert.equal(moveSelection(0, 1, 0), 0);
});
