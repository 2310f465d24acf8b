// The chat against the real agent: opening the view starts `hermes acp` with the environment
// from hermes.agent.env; "Explain Selection" sends a prompt with the selection that the scripted
// model answers; "Fix Selection" makes the agent write a file, which goes through a VS Code
// document (fs/write_text_file). Replies are read from the session journal the agent writes in
// $HERMES_HOME/sessions, which holds exactly what the chat showed.
"use strict";
const assert = require("node:assert/strict");
const { existsSync, readdirSync, readFileSync } = require("node:fs");
const path = require("node:path");
const vscode = require("vscode");
const { test, waitFor } = require("./harness.cjs");
const { GREETING, EDITED_TEXT, EDIT_DONE } = require("./replies.cjs");

const HOME = process.env.HERMES_TEST_HOME;
const WORKSPACE = process.env.HERMES_TEST_WORKSPACE;
const GREETING_FILE = path.join(WORKSPACE || "", "greeting.txt");

/** Every journal record of every session, in file order. */
function journalRecords() {
  const dir = path.join(HOME, "sessions");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith(".jsonl"))
    .flatMap((name) =>
      readFileSync(path.join(dir, name), "utf8")
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line)),
    );
}

function messages(role) {
  return journalRecords()
    .filter((r) => r.t === "message" && r.message.role === role)
    .map((r) => (typeof r.message.content === "string" ? r.message.content : JSON.stringify(r.message.content)));
}

/** Pids of processes started with our HERMES_HOME (Linux; elsewhere undefined: not checked). */
function agentPids() {
  if (!existsSync("/proc/self/environ")) return undefined;
  const needle = `HERMES_HOME=${HOME}\0`;
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid)
    .filter((entry) => {
      try {
        return readFileSync(`/proc/${entry}/environ`, "latin1").includes(needle);
      } catch {
        return false;
      }
    });
}

async function selectAllOf(file) {
  const document = await vscode.workspace.openTextDocument(file);
  const editor = await vscode.window.showTextDocument(document, { preview: false });
  editor.selection = new vscode.Selection(0, 0, document.lineCount - 1, document.lineAt(document.lineCount - 1).text.length);
  return editor;
}

test("the suite got its environment from host-fixture.cjs", async () => {
  assert.ok(HOME && existsSync(path.join(HOME, "config.yaml")), "HERMES_TEST_HOME with config.yaml");
  assert.ok(WORKSPACE && existsSync(GREETING_FILE), "HERMES_TEST_WORKSPACE with greeting.txt");
  assert.equal(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath, WORKSPACE, "VS Code opened the test workspace");
});

test("opening the view starts the agent with hermes.agent.env", async () => {
  await vscode.commands.executeCommand("hermes.chat.focus");
  if (agentPids() === undefined) return console.log("  (no /proc here: the agent process is checked by the next test's reply)");
  await waitFor(() => agentPids().length > 0, 30_000, "no agent process with HERMES_HOME from hermes.agent.env");
});

test("Explain Selection sends the selection and the scripted model's reply comes back", async () => {
  await selectAllOf(GREETING_FILE);
  await vscode.commands.executeCommand("hermes.explainSelection");
  await waitFor(() => messages("assistant").some((text) => text.includes(GREETING)), 60_000, () => `no reply in the journal; assistant messages: ${JSON.stringify(messages("assistant"))}`);
  const prompt = messages("user").find((text) => text.includes("Explain this code."));
  assert.ok(prompt, "the prompt reached the agent");
  assert.ok(prompt.includes("hello") && prompt.includes("world"), `the selection went with it: ${prompt}`);
}, { timeoutMs: 90_000 });

test("an edit by the agent goes through the editor (accept_edits, review off)", async () => {
  await selectAllOf(GREETING_FILE);
  await vscode.commands.executeCommand("hermes.fixSelection");
  await waitFor(() => messages("assistant").some((text) => text.includes(EDIT_DONE)), 60_000, "the turn with the edit did not finish");
  const document = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === GREETING_FILE);
  assert.ok(document, "greeting.txt is open");
  assert.equal(document.getText(), EDITED_TEXT, "the editor's document holds the agent's edit");
  await waitFor(() => readFileSync(GREETING_FILE, "utf8") === EDITED_TEXT, 10_000, "the edit was not saved to disk");
}, { timeoutMs: 90_000 });

test("every contributed command still runs after a chat (new chat, history, cancel)", async () => {
  await vscode.commands.executeCommand("hermes.newChat");
  await vscode.commands.executeCommand("hermes.showHistory");
  await vscode.commands.executeCommand("hermes.cancel");
});
