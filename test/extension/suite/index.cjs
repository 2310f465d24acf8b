// Entry point VS Code calls in the extension development host (extensionTestsPath): loads the
// test files in order and runs them. Resolves when every test passed; VS Code then exits 0.
"use strict";
const { runAll } = require("./harness.cjs");

async function run() {
  require("./activation.test.cjs");
  require("./chat.test.cjs");
  await runAll();
}

module.exports = { run };
