// Secrets as an attacker would leak them, over real stdio with a scripted model: a key in the
// streamed reply (split across chunks), a token in a terminal command, the agent's own
// password printed base64-encoded, a key in write_file's content and a token in AGENTS.md.
// None may reach a frame the editor receives, the journal on disk, the session/load replay
// (also of an old journal written before redaction) or the model's input (a key the user pasted
// into the prompt included) — while the file
// written by write_file holds the real content.
import * as acp from "@agentclientprotocol/sdk/unstable";
import assert from "node:assert/strict";
import { appendFileSync, readdirSync, readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { makeTempDir, scriptedConfig, sessionUpdates, startHermes, type Harness } from "../support/acp-harness";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();

// Assembled from parts so no file in the repository holds a scanner-shaped token.
const replyKey = "sk-ant-" + "api03-" + "Ab3dEfGh1jKlMnOp2rStUvWx4z5678AbCdEfGh9J";
const commandToken = "ghp_" + "aBcD1234eFgH5678iJkL9012mNoP3456qRsT";
const fileKey = "sk-proj-" + "Q9w8E7r6T5y4U3i2O1p0AsDfGhJkLzXcVbNm";
const agentsToken = "glpat-" + "xY7zAb3dEfGh1jKlMnOp";
const ownPassword = "Zq8-Hermes-Pw-4417"; // matches no format: caught because it is the agent's own
const oldJournalKey = "npm_" + "aB3dEfGh1jKlMnOp2rStUvWx4z5678AbCdEf";
const pastedKey = "hf_" + "QwErTyUiOpAsDfGhJkLzXcVbNm1234567890"; // pasted by the user into the prompt

/** Parts that must never be seen: bodies without the recognisable prefixes, and the disguised forms. */
const FORBIDDEN = [
  replyKey.slice(14, 40),
  commandToken.slice(4, 30),
  fileKey.slice(8, 34),
  agentsToken.slice(6),
  ownPassword,
  Buffer.from(ownPassword).toString("base64").slice(0, 20),
  oldJournalKey.slice(4, 30),
  pastedKey.slice(3, 30),
];

function leaks(text: string): string[] {
  return FORBIDDEN.filter((secret) => text.includes(secret));
}

function journals(home: string): string {
  const dir = path.join(home, "sessions");
  return readdirSync(dir)
    .filter((file) => file.endsWith(".jsonl"))
    .map((file) => readFileSync(path.join(dir, file), "utf8"))
    .join("\n");
}

test("no secret reaches the editor, the journal, the replay or the model; the file keeps the real content", async () => {
  const model = scripted();
  const project = await makeTempDir("hermes-secrets-");
  await writeFile(path.join(project, "AGENTS.md"), `# Deploy\nThe CI token is ${agentsToken}; use it for the registry.\n`);
  model.enqueue(
    {
      text: `Here is the key you asked about: ${replyKey} (keep it safe). Running the deploy now.`,
      toolCalls: [{ id: "t1", name: "terminal", arguments: { command: `echo deploy --token ${commandToken}; printf '%s' '${ownPassword}' | base64` } }],
    },
    { toolCalls: [{ id: "w1", name: "write_file", arguments: { path: ".env.local", content: `OPENAI_API_KEY=${fileKey}\nDEBUG=1\n` } }] },
    { text: `Done. The key ${fileKey} is in .env.local.` },
  );
  const config = scriptedConfig(model.url, { agent: { default_mode: "accept_edits" } });
  const env = { SERVICE_PASSWORD: ownPassword };
  let first: Harness | undefined;
  let second: Harness | undefined;
  try {
    first = await startHermes({ config, env, permission: "allow" });
    await first.initialize();
    const { sessionId } = await first.newSession(project);
    assert.equal((await first.prompt(sessionId, `Show me the key, deploy, then write .env.local. The log said: HF_TOKEN=${pastedKey} rejected`)).stopReason, "end_turn");

    // The work really happened, with the real values.
    assert.equal(await readFile(path.join(project, ".env.local"), "utf8"), `OPENAI_API_KEY=${fileKey}\nDEBUG=1\n`);
    const updates = sessionUpdates(first, sessionId);
    const reply = updates.map((u) => (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? u.content.text : "")).join("");
    assert.match(reply, /^Here is the key you asked about: sk-ant-api03-…\[REDACTED\] \(keep it safe\)\. Running the deploy now\.Done\./);
    assert.ok(updates.filter((u) => u.sessionUpdate === "agent_message_chunk").length > 3, "still streamed in pieces");
    const commandCard = JSON.stringify(updates.filter((u) => (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") && u.toolCallId === "t1"));
    assert.match(commandCard, /ghp_…\[REDACTED\]/, "the command is shown, masked");
    assert.match(commandCard, /deploy --token/);

    // 1. Every frame the editor received (updates, permission requests, responses).
    assert.deepEqual(leaks(JSON.stringify(first.frames)), [], "frames");
    assert.deepEqual(first.invalidUpdates, []);
    // 2. The journal on disk, every record (the prompt, replies, tool calls, the system prompt).
    const journal = journals(first.home);
    assert.match(journal, /"systemPrompt"/);
    assert.deepEqual(leaks(journal), [], "journal");
    // 3. The model's input: system prompt (AGENTS.md), tool results, its own earlier calls.
    assert.equal(model.requests.length, 3);
    assert.match(JSON.stringify(model.requests[0].body), /glpat-…\[REDACTED\]/, "AGENTS.md reached the model, masked");
    assert.deepEqual(leaks(JSON.stringify(model.requests.map((r) => r.body))), [], "model requests");

    // 4. An old journal (written before redaction) with a secret in every kind of record.
    const file = readdirSync(path.join(first.home, "sessions")).find((name) => name.startsWith(sessionId))!;
    const lastSeq = Math.max(...journal.split("\n").filter(Boolean).map((line) => JSON.parse(line)).filter((r) => r.t === "message").map((r) => r.seq));
    const at = Date.now();
    const old = [
      { t: "message", seq: lastSeq + 1, at, message: { role: "user", content: [{ type: "text", text: `my npm token is ${oldJournalKey}` }] }, tokens: 10 },
      { t: "message", seq: lastSeq + 2, at, message: { role: "assistant", content: `Saved ${oldJournalKey}.`, toolCalls: [{ id: "o1", name: "terminal", arguments: JSON.stringify({ command: `npm config set //registry/:_authToken=${oldJournalKey}` }) }] }, tokens: 10 },
      { t: "tool_call", at, call: { id: "o1", requestId: "o1", name: "terminal", title: `$ npm config set //registry/:_authToken=${oldJournalKey}`, kind: "execute", locations: [], rawInput: { command: `npm config set //registry/:_authToken=${oldJournalKey}` }, status: "completed", content: [{ type: "text", text: oldJournalKey }], rawOutput: { output: oldJournalKey } } },
      { t: "message", seq: lastSeq + 3, at, message: { role: "tool", toolCallId: "o1", name: "terminal", content: `{"output":"${oldJournalKey}"}` }, tokens: 10 },
      { t: "message", seq: lastSeq + 4, at, message: { role: "assistant", content: "ok" }, tokens: 1 },
    ];
    appendFileSync(path.join(first.home, "sessions", file), old.map((record) => JSON.stringify(record) + "\n").join(""));

    second = await startHermes({ config, env: { ...env, HERMES_HOME: first.home }, permission: "allow" });
    await second.initialize();
    // The first process still has it open: this one takes it over to write (one writer per session).
    await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [], _meta: { "hermes/takeOver": true } });
    const replay = JSON.stringify(sessionUpdates(second, sessionId));
    assert.match(replay, /my npm token is npm_…\[REDACTED\]/, "the old journal was replayed");
    assert.deepEqual(leaks(replay), [], "replay");
    // …and what the model gets back from it.
    model.enqueue({ text: "Still here." });
    assert.equal((await second.prompt(sessionId, "thanks")).stopReason, "end_turn");
    assert.deepEqual(leaks(JSON.stringify(model.requests.at(-1)!.body)), [], "model input from an old journal");
    assert.deepEqual(leaks(JSON.stringify(second.frames)), [], "second process frames");
    assert.deepEqual(leaks(second.stderr() + first.stderr()), [], "logs");
  } finally {
    await first?.close();
    await second?.close();
  }
});
