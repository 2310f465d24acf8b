// "Prove it learns", over real ACP stdio with a scripted model that behaves like a model: it
// takes the short path only when a skill for the task is in its skills index. Session 1 solves
// the task the long way (a failed guess, a search, reads, the fix, a check); the background
// review saves what worked as a skill; session 2 gets the same kind of task, sees the skill in
// its index, loads it, and finishes in fewer model calls. The counts are printed.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { REVIEW_MARK } from "../../acp-server/learning/review";
import { makeTempDir, scriptedConfig, sessionUpdates, startHermes } from "../support/acp-harness";
import { startScriptedModel, type RecordedRequest, type ScriptedReply, type ScriptedToolCall } from "../support/scripted-model";

const SKILL_NAME = "sync-version-file";
const SKILL = `---
name: ${SKILL_NAME}
description: Make src/version.txt match the version in package.json. Use when asked to sync or bump the version file.
---
# Sync the version file

1. The version file is src/version.txt (there is no VERSION file at the root).
2. Read package.json for the version.
3. Write that version, and nothing else, to src/version.txt.
`;

type Message = { role: string; content: unknown; tool_calls?: unknown[] };

const systemPrompt = (request: RecordedRequest): string => String(request.body.messages[0]?.content ?? "");
const isReview = (request: RecordedRequest) => systemPrompt(request).startsWith(REVIEW_MARK);

/** The text of the turn's prompt (the last user message) and the assistant steps taken since. */
function turnState(request: RecordedRequest): { prompt: string; steps: number } {
  const messages = request.body.messages as Message[];
  const last = messages.findLastIndex((m) => m.role === "user");
  const prompt = JSON.stringify(messages[last]?.content ?? "");
  return { prompt, steps: messages.slice(last).filter((m) => m.role === "assistant").length };
}

const call = (name: string, args: unknown): ScriptedToolCall => ({ name, arguments: args });

/** The task done without knowing where the version file is: guess, fail, search, read, write, check. */
const LONG_PATH: ScriptedReply[] = [
  { toolCalls: [call("read_file", { path: "VERSION" })] },
  { toolCalls: [call("search_files", { pattern: "version", target: "files" })] },
  { toolCalls: [call("read_file", { path: "src/version.txt" })] },
  { toolCalls: [call("read_file", { path: "package.json" })] },
  { toolCalls: [call("write_file", { path: "src/version.txt", content: "2.4.0\n" })] },
  { toolCalls: [call("read_file", { path: "src/version.txt" })] },
  { text: "src/version.txt now says 2.4.0, as package.json does." },
];

/** The same task with the skill in the index: load it (and read package.json at once), write, done. */
const SKILL_PATH: ScriptedReply[] = [
  { toolCalls: [call("skill_view", { name: SKILL_NAME }), call("read_file", { path: "package.json" })] },
  { toolCalls: [call("write_file", { path: "src/version.txt", content: "3.0.1\n" })] },
  { text: "Followed the sync-version-file skill: src/version.txt says 3.0.1." },
];

/** The scripted model: the review saves the procedure; a task takes the short path only when the skill is indexed. */
function behave(request: RecordedRequest): ScriptedReply {
  const { steps } = turnState(request);
  if (isReview(request)) {
    return steps === 0 ? { toolCalls: [call("skill_manage", { action: "create", name: SKILL_NAME, content: SKILL })] } : { text: `Saved the skill ${SKILL_NAME}.` };
  }
  const knowsSkill = systemPrompt(request).includes(`- ${SKILL_NAME}: `);
  const path = knowsSkill ? SKILL_PATH : LONG_PATH;
  return path[Math.min(steps, path.length - 1)]!;
}

async function project(version: string, current: string): Promise<string> {
  const dir = await makeTempDir("hermes-learns-");
  mkdirSync(path.join(dir, ".git"));
  mkdirSync(path.join(dir, "src"));
  writeFileSync(path.join(dir, "package.json"), `${JSON.stringify({ name: "demo", version }, null, 2)}\n`);
  writeFileSync(path.join(dir, "src", "version.txt"), `${current}\n`);
  return dir;
}

test("prove it learns: the review turns session 1's long way into a skill, and session 2 finishes in fewer model calls", async (t) => {
  const model = await startScriptedModel({ fallback: { handler: behave } });
  t.after(() => model.close());
  const hermes = await startHermes({ config: scriptedConfig(model.url, { learning: { review: "on" } }) });
  try {
    await hermes.initialize();
    const callsFor = (prompt: string) => model.requests.filter((r) => !isReview(r) && turnState(r).prompt.includes(prompt)).length;

    // Session 1: the long way, with one failure and a recovery.
    const first = await project("2.4.0", "2.3.9");
    const one = (await hermes.newSession(first)).sessionId;
    const task1 = "sync the version file with package.json";
    assert.equal((await hermes.prompt(one, task1)).stopReason, "end_turn");
    assert.equal(readFileSync(path.join(first, "src", "version.txt"), "utf8"), "2.4.0\n");
    const failed = sessionUpdates(hermes, one).filter((u) => u.sessionUpdate === "tool_call_update" && u.status === "failed");
    assert.equal(failed.length, 1, "the guessed VERSION file failed once");

    // The background review saves the skill and says so, with an undo.
    const learned = await hermes.waitForUpdate((u) => !!(u as { _meta?: Record<string, unknown> })._meta?.["hermes/learned"], 20_000);
    assert.match(JSON.stringify(learned), new RegExp(`Learned: new skill \\\\"${SKILL_NAME}\\\\"`));
    await hermes.waitForStderr("learning review finished");
    const skillFile = path.join(hermes.home, "skills", SKILL_NAME, "SKILL.md");
    assert.ok(existsSync(skillFile), "the skill is in $HERMES_HOME/skills");
    const reviewCalls = model.requests.filter(isReview).length;

    // Session 2: the same kind of task in another project.
    const second = await project("3.0.1", "3.0.0");
    const two = (await hermes.newSession(second)).sessionId;
    const task2 = "please sync src/version.txt to the package version";
    const before = model.requests.length;
    assert.equal((await hermes.prompt(two, task2)).stopReason, "end_turn");
    assert.equal(readFileSync(path.join(second, "src", "version.txt"), "utf8"), "3.0.1\n");
    const firstCall = model.requests.slice(before).find((r) => !isReview(r))!;
    assert.match(systemPrompt(firstCall), new RegExp(`- ${SKILL_NAME}: Use when asked to sync or bump the version file\\.`), "the skill is in session 2's index");
    const loaded = sessionUpdates(hermes, two).find((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed" && JSON.stringify(u).includes(`${SKILL_NAME} (user`));
    assert.ok(loaded, "session 2 loaded the skill with skill_view");

    const session1 = callsFor(task1);
    const session2 = callsFor(task2);
    console.log(`model calls: session 1 = ${session1} (the long way), learning review = ${reviewCalls}, session 2 = ${session2} (with the skill)`);
    assert.equal(session1, LONG_PATH.length);
    assert.equal(session2, SKILL_PATH.length);
    assert.ok(session2 < session1, "session 2 needed fewer model calls");
    assert.deepEqual(hermes.invalidUpdates, []);
    assert.deepEqual(hermes.strayStdout, []);
  } finally {
    await hermes.close();
  }
});
