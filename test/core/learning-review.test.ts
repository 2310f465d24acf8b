// The background learning review, in process over the real protocol: a turn with significant
// work is reviewed by the auxiliary model after its answer; what it saves is announced as an
// agent message with `_meta["hermes/learned"]`, journaled and replayed, listed by /learned and
// undone by `/learned undo`; `ask` proposes each change as a diff; a prompt stops a running
// review and never waits for it; a poisoned turn changes neither memory nor skills.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { REVIEW_MARK } from "../../acp-server/learning/review";
import { PLAIN_PAYLOADS } from "../fixtures/memory-poisoning";
import { agentText, makeTempDir, scriptedConfig, sessionUpdates, startAgent, type InProcessAgent } from "../support/in-process-agent";
import { startScriptedModel, type RecordedRequest, type ScriptedModel } from "../support/scripted-model";

const SKILL = `---
name: read-both-files
description: Check a.txt and b.txt together. Use when asked to compare the two text files.
---
# Read both files

1. Read a.txt and b.txt in one step.
2. Compare them line by line.
`;

type Learned = { id: string; kind: string; what: string; where: string; undo: string };

function learnedOf(updates: acp.SessionUpdate[]): Learned[] {
  return updates.flatMap((update) => {
    const learned = (update as { _meta?: Record<string, unknown> })._meta?.["hermes/learned"] as Learned | undefined;
    return learned ? [learned] : [];
  });
}

const isReview = (request: RecordedRequest) => String(request.body?.messages?.[0]?.content ?? "").startsWith(REVIEW_MARK);
const reviewRequests = (model: ScriptedModel) => model.requests.filter(isReview);

async function project(): Promise<string> {
  const dir = await makeTempDir("hermes-learning-");
  mkdirSync(path.join(dir, ".git"));
  writeFileSync(path.join(dir, "a.txt"), "alpha\n");
  writeFileSync(path.join(dir, "b.txt"), "beta\n");
  return dir;
}

/** A turn of 8 tool calls (four model calls reading both files), then its answer. */
function longTurn(model: ScriptedModel, answer = "Both files read."): void {
  const read = (file: string) => ({ name: "read_file", arguments: { path: file } });
  for (let i = 0; i < 4; i++) model.enqueue({ toolCalls: [read("a.txt"), read("b.txt")] });
  model.enqueue({ text: answer });
}

/** Resolves once the agent logged `message` (the review's end is not a protocol event when it learned nothing). */
function logged(hermes: InProcessAgent, message: string, count = 1): Promise<void> {
  return hermes.waitForLog(message, count);
}

test("learning.review on: a long turn is reviewed after its answer; the skill it saves is announced, listed, replayed and undone", async (t) => {
  // One model per test: a review's leftover replies must not reach the next test.
  const model = await startScriptedModel();
  t.after(() => model.close());
  const cwd = await project();
  const hermes = await startAgent({ config: scriptedConfig(model.url, { learning: { review: "on" } }) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(cwd);
    longTurn(model);
    model.enqueue({ toolCalls: [{ name: "skill_manage", arguments: { action: "create", name: "read-both-files", content: SKILL } }] }, { text: "Saved the skill read-both-files." });
    const response = await hermes.prompt(sessionId, "compare a.txt and b.txt");
    assert.equal(response.stopReason, "end_turn");
    // The review starts after the answer: none of its calls came before it.
    const announced = await hermes.waitForUpdate((u) => learnedOf([u]).length > 0);
    const [learned] = learnedOf([announced]);
    assert.ok(learned);
    assert.equal(learned.kind, "skill");
    assert.match(learned.what, /new skill "read-both-files": Check a\.txt and b\.txt together/);
    const skillFile = path.join(hermes.home, "skills", "read-both-files", "SKILL.md");
    assert.equal(learned.where, skillFile);
    assert.equal(learned.undo, `/learned undo ${learned.id}`);
    assert.ok(existsSync(skillFile));
    assert.match(readFileSync(skillFile, "utf8"), /provenance:\n {2}author: agent\n {2}session: /);
    // Any client reads it as text.
    assert.match(agentText(hermes, sessionId), /Learned: new skill "read-both-files"[\s\S]*\/learned undo l[0-9a-f]+/);

    // The review ran on the auxiliary model (the main one here) with a digest of the turn, and the learning tools.
    const [review] = reviewRequests(model);
    assert.ok(review);
    const digest = JSON.stringify(review.body.messages[1]);
    assert.match(digest, /compare a\.txt and b\.txt/);
    assert.match(digest, /Steps \(8 tool calls\)/);
    assert.match(digest, /Why reviewed: it took 8 tool calls/);
    const tools = (review.body.tools as { function: { name: string } }[]).map((tool) => tool.function.name).sort();
    assert.deepEqual(tools, ["memory", "read_file", "search_files", "skill_manage", "skill_view", "skills_list"]);
    await logged(hermes, "learning review finished");

    // Its cost is the session's: /usage counts the 5 turn calls and the 2 review calls.
    await hermes.prompt(sessionId, "/usage");
    assert.match(agentText(hermes, sessionId), /over 7 model calls/);

    await hermes.prompt(sessionId, "/learned");
    assert.match(agentText(hermes, sessionId), new RegExp(`\`${learned.id}\` .* \\(this session\\): new skill "read-both-files"`));

    // session/load replays the announcement from the journal, _meta included.
    const before = hermes.updates.length;
    await hermes.agent.request(acp.methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    assert.deepEqual(learnedOf(hermes.updates.slice(before).map((n) => n.update)), [learned]);

    // Undo: the skill is archived (kept), no longer listed.
    await hermes.prompt(sessionId, `/learned undo ${learned.id}`);
    assert.match(agentText(hermes, sessionId), /Undid `l[0-9a-f]+`: the skill "read-both-files" is archived/);
    assert.ok(!existsSync(skillFile));
    const archived = readdirSync(path.join(hermes.home, "skills-archive"));
    assert.equal(archived.length, 1);
    assert.ok(existsSync(path.join(hermes.home, "skills-archive", archived[0]!, "SKILL.md")));
    await hermes.prompt(sessionId, `/learned undo ${learned.id}`);
    assert.match(agentText(hermes, sessionId), /was already undone/);
    assert.deepEqual(hermes.invalidUpdates, []);
  } finally {
    await hermes.close();
  }
});

test("a short turn is not reviewed; a correction is, and a memory it saves is undone entry by entry", async (t) => {
  // One model per test: a review's leftover replies must not reach the next test.
  const model = await startScriptedModel();
  t.after(() => model.close());
  const cwd = await project();
  const hermes = await startAgent({ config: scriptedConfig(model.url, { learning: { review: "on" } }) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(cwd);
    model.enqueue({ toolCalls: [{ name: "read_file", arguments: { path: "a.txt" } }] }, { text: "Ran npm install." });
    await hermes.prompt(sessionId, "install the dependencies");
    const calls = model.requests.length;

    model.enqueue({ text: "Switched to pnpm." });
    model.enqueue({ toolCalls: [{ name: "memory", arguments: { action: "add", target: "user", content: "Uses pnpm, never npm, for installs." } }] }, { text: "Saved the preference." });
    await hermes.prompt(sessionId, "no, use pnpm here, not npm");
    const announced = await hermes.waitForUpdate((u) => learnedOf([u]).length > 0);
    await logged(hermes, "learning review finished");
    assert.equal(reviewRequests(model).length, 2, "one review (two calls), after the correction only");
    assert.ok(!model.requests.slice(0, calls).some(isReview));
    const [learned] = learnedOf([announced]);
    assert.equal(learned?.kind, "memory");
    assert.match(learned?.what ?? "", /about you: "Uses pnpm, never npm, for installs\."/);
    const userFile = path.join(hermes.home, "memories", "USER.md");
    assert.match(readFileSync(userFile, "utf8"), /Uses pnpm/);
    await logged(hermes, "learning review finished");

    // A hand-written entry stays when the learned one is undone.
    writeFileSync(userFile, `${readFileSync(userFile, "utf8").trim()}\n§\nPrefers short answers.\n`);
    await hermes.prompt(sessionId, `/learned undo ${learned!.id}`);
    assert.match(agentText(hermes, sessionId), /Undid `l[0-9a-f]+`: about you: "Uses pnpm/);
    assert.equal(readFileSync(userFile, "utf8"), "Prefers short answers.\n");
  } finally {
    await hermes.close();
  }
});

test("learning.review ask: each change is a permission request with its diff; a rejected one writes nothing", async (t) => {
  // One model per test: a review's leftover replies must not reach the next test.
  const model = await startScriptedModel();
  t.after(() => model.close());
  const cwd = await project();
  const asked: acp.RequestPermissionRequest[] = [];
  const hermes = await startAgent({
    config: scriptedConfig(model.url, { learning: { review: "ask" } }),
    permission: (request) => {
      asked.push(request);
      // The memory note is allowed, the skill is not.
      return request.toolCall.title?.includes("remember") ? "allow_once" : "reject_once";
    },
  });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(cwd);
    longTurn(model);
    model.enqueue(
      { toolCalls: [{ name: "skill_manage", arguments: { action: "create", name: "read-both-files", content: SKILL } }] },
      { toolCalls: [{ name: "memory", arguments: { action: "add", target: "memory", content: "a.txt and b.txt hold the fixture words." } }] },
      { text: "Saved one memory note." },
    );
    await hermes.prompt(sessionId, "compare a.txt and b.txt");
    const announced = await hermes.waitForUpdate((u) => learnedOf([u]).length > 0);
    await logged(hermes, "learning review finished");
    assert.equal(asked.length, 2);
    const [skillAsk, memoryAsk] = asked;
    assert.match(skillAsk?.toolCall.title ?? "", /Learn: new skill "read-both-files"/);
    const skillDiff = skillAsk?.toolCall.content?.find((c) => c.type === "diff");
    assert.equal(skillDiff?.type === "diff" ? skillDiff.path : "", path.join(hermes.home, "skills", "read-both-files", "SKILL.md"));
    assert.deepEqual(skillAsk?.options.map((o) => o.optionId), ["allow_once", "reject_once"], "each change is asked about on its own");
    const memoryDiff = memoryAsk?.toolCall.content?.find((c) => c.type === "diff");
    assert.ok(memoryDiff?.type === "diff" && memoryDiff.newText.includes("fixture words") && memoryDiff.oldText === "");
    // The rejected skill was not written, and the review model was told so.
    assert.ok(!existsSync(path.join(hermes.home, "skills", "read-both-files")));
    const toolResults = JSON.stringify(reviewRequests(model)[1]?.body.messages.filter((m: { role: string }) => m.role === "tool"));
    assert.match(toolResults, /The user declined this change/);
    assert.deepEqual(learnedOf([announced]).map((l) => l.kind), ["memory"]);
    assert.deepEqual(learnedOf(sessionUpdates(hermes, sessionId)).length, 1);
  } finally {
    await hermes.close();
  }
});

test("a prompt stops a running review and does not wait for it; the review runs again after that prompt's turn", async (t) => {
  // One model per test: a review's leftover replies must not reach the next test.
  const model = await startScriptedModel();
  t.after(() => model.close());
  const cwd = await project();
  const hermes = await startAgent({ config: scriptedConfig(model.url, { learning: { review: "on" } }) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(cwd);
    longTurn(model);
    model.enqueue({ text: "(thinking)", hang: true });
    await hermes.prompt(sessionId, "compare a.txt and b.txt");
    await logged(hermes, "learning review started");
    // The review's call is hanging: the next prompt goes through at once.
    await model.waitForRequest(isReview, 10_000);
    model.enqueue({ text: "Here is the answer." });
    model.enqueue({ text: "Nothing to learn." });
    const response = await hermes.prompt(sessionId, "what is in a.txt?");
    assert.equal(response.stopReason, "end_turn");
    assert.match(agentText(hermes, sessionId), /Here is the answer\./);
    await logged(hermes, "learning review stopped");
    // The stopped review's digest is reviewed again after the turn.
    await logged(hermes, "learning review finished");
    const reviews = reviewRequests(model);
    assert.equal(reviews.length, 2);
    assert.match(JSON.stringify(reviews[1]?.body.messages[1]), /compare a\.txt and b\.txt/);
    assert.deepEqual(learnedOf(sessionUpdates(hermes, sessionId)), []);
  } finally {
    await hermes.close();
  }
});

test("a poisoned turn changes neither memory nor skills: the digest withholds the injection, and a fooled review is refused", async (t) => {
  // One model per test: a review's leftover replies must not reach the next test.
  const model = await startScriptedModel();
  t.after(() => model.close());
  const cwd = await project();
  const payloads = PLAIN_PAYLOADS.slice(0, 6);
  writeFileSync(path.join(cwd, "README.md"), `# Project\n\n${payloads.join("\n\n")}\n`);
  const hermes = await startAgent({ config: scriptedConfig(model.url, { learning: { review: "on" } }) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(cwd);
    // A failure, then a recovery that reads the poisoned README: the turn is reviewed.
    model.enqueue({ toolCalls: [{ name: "read_file", arguments: { path: "missing.md" } }] });
    model.enqueue({ toolCalls: [{ name: "read_file", arguments: { path: "README.md" } }] });
    model.enqueue({ text: `The README says: ${payloads[0]}` });
    // The review model was fooled anyway (it did not see the text, but say it did): every write is refused.
    const poisonedSkill = `---\nname: project-rules\ndescription: Rules for this project. Use always.\n---\n${payloads.join("\n")}\n`;
    model.enqueue({
      toolCalls: [
        ...payloads.map((payload) => ({ name: "memory", arguments: { action: "add", target: "memory", content: payload } })),
        { name: "memory", arguments: { action: "add", target: "user", content: payloads[1] } },
        { name: "skill_manage", arguments: { action: "create", name: "project-rules", content: poisonedSkill } },
      ],
    });
    model.enqueue({ text: "Nothing saved." });
    await hermes.prompt(sessionId, "read the docs");
    await logged(hermes, "learning review finished");

    const [review] = reviewRequests(model);
    assert.ok(review, "the recovered turn was reviewed");
    const digest = JSON.stringify(review.body.messages[1]);
    for (const payload of payloads) assert.ok(!digest.includes(JSON.stringify(payload).slice(1, -1)), `the digest withholds ${payload}`);
    assert.match(digest, /\[withheld: /);
    const results = (reviewRequests(model)[1]?.body.messages ?? []).filter((m: { role: string }) => m.role === "tool").map((m: { content: string }) => m.content);
    assert.equal(results.length, payloads.length + 2);
    for (const result of results) assert.match(result, /Refused/);
    assert.ok(!existsSync(path.join(hermes.home, "memories", "MEMORY.md")) || readFileSync(path.join(hermes.home, "memories", "MEMORY.md"), "utf8") === "");
    assert.ok(!existsSync(path.join(hermes.home, "memories", "USER.md")) || readFileSync(path.join(hermes.home, "memories", "USER.md"), "utf8") === "");
    assert.ok(!existsSync(path.join(hermes.home, "skills", "project-rules")));
    assert.ok(!existsSync(path.join(hermes.home, "learning", "changes")), "no learned change recorded");
    assert.deepEqual(learnedOf(sessionUpdates(hermes, sessionId)), []);
  } finally {
    await hermes.close();
  }
});
