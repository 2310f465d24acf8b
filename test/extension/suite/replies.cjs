// The scripted model's replies for the suite, served in order (one per model call). Shared by
// the runner (which starts the server with them) and the tests (which expect their text).
"use strict";

const GREETING = "Hello from the scripted model, inside VS Code.";
const EDITED_TEXT = "hello\nworld, edited by Hermes\n";
const EDIT_DONE = "I edited greeting.txt.";

const REPLIES = [
  // chat.test.cjs: a plain prompt.
  { text: GREETING },
  // chat.test.cjs: an edit that must go through the editor (fs/write_text_file → a VS Code document).
  { toolCalls: [{ name: "write_file", arguments: { path: "greeting.txt", content: EDITED_TEXT } }] },
  { text: EDIT_DONE },
];

module.exports = { REPLIES, GREETING, EDITED_TEXT, EDIT_DONE };
