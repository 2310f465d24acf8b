// Activation and contributions: the extension is lazy, opening its view activates it, and every
// command the manifest contributes is registered.
"use strict";
const assert = require("node:assert/strict");
const vscode = require("vscode");
const { test, waitFor } = require("./harness.cjs");

const EXTENSION_ID = "hermes-agent.hermes-agent-editors";

test("the extension is installed and not activated before it is needed", async () => {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not loaded`);
  assert.equal(extension.isActive, false, "activation should wait for the view or a command");
});

test("opening the chat view activates the extension", async () => {
  await vscode.commands.executeCommand("hermes.chat.focus");
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  await waitFor(() => extension.isActive, 30_000, "the extension did not activate when its view opened");
});

test("every contributed command is registered", async () => {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  const contributed = extension.packageJSON.contributes.commands.map((c) => c.command);
  assert.ok(contributed.length >= 8, "the manifest contributes the chat commands");
  const registered = new Set(await vscode.commands.getCommands(true));
  const missing = contributed.filter((id) => !registered.has(id));
  assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(", ")}`);
});

test("the manifest declares limited support for untrusted workspaces", async () => {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.equal(extension.packageJSON.capabilities.untrustedWorkspaces.supported, "limited");
  assert.equal(extension.packageJSON.main, "./dist/extension.cjs");
});

module.exports = { EXTENSION_ID };
