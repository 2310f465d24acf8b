// The skills curator, in process over the real protocol: `/skills curate` archives user skills
// unused for `learning.archive_after_days` (kept, announced as "Learned" with an undo,
// restorable with `/skills restore`), and with the auxiliary model merges overlapping skills
// and patches one that keeps failing, through the review's checked write tools; `ask` proposes
// each change as a diff; the background pass runs when due for the whole home and not again
// until the interval has passed.
import type * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { CURATOR_MARK } from "../../acp-server/learning/curator";
import { PLAIN_PAYLOADS } from "../fixtures/memory-poisoning";
import { agentText, makeTempDir, scriptedConfig, sessionUpdates, startAgent, type InProcessAgent } from "../support/in-process-agent";
import { startScriptedModel, type RecordedRequest } from "../support/scripted-model";

type Learned = { id: string; kind: string; what: string; where: string; undo: string };

function learnedOf(updates: acp.SessionUpdate[]): Learned[] {
  return updates.flatMap((update) => {
    const learned = (update as { _meta?: Record<string, unknown> })._meta?.["hermes/learned"] as Learned | undefined;
    return learned ? [learned] : [];
  });
}

const DAY_MS = 24 * 60 * 60 * 1000;

function skillText(name: string, description: string, body = "1. Do the thing.\n2. Check it.\n"): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n\n${body}`;
}

/** A user skill in the agent's home; `idleDays` back-dates its SKILL.md (never used). */
function userSkill(hermes: InProcessAgent, name: string, description: string, idleDays = 0, body?: string): string {
  const dir = path.join(hermes.home, "skills", name);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "SKILL.md");
  writeFileSync(file, skillText(name, description, body));
  if (idleDays) {
    const then = new Date(Date.now() - idleDays * DAY_MS);
    utimesSync(file, then, then);
  }
  return file;
}

async function workspace(): Promise<string> {
  const dir = await makeTempDir("hermes-curator-");
  mkdirSync(path.join(dir, ".git"));
  return dir;
}

const isCurator = (request: RecordedRequest) => String(request.body?.messages?.[0]?.content ?? "").startsWith(CURATOR_MARK);

test("/skills curate archives a skill unused for N days (no model needed): announced with its undo, listed, restored", async (t) => {
  const model = await startScriptedModel();
  t.after(() => model.close());
  const hermes = await startAgent({ config: scriptedConfig(model.url, { learning: { review: "off", curator: "off", archive_after_days: 30 } }) });
  try {
    await hermes.initialize();
    const file = userSkill(hermes, "old-helper", "Format the changelog the old way.", 100);
    userSkill(hermes, "fresh-helper", "Run the release checklist.", 5);
    const { sessionId } = await hermes.newSession(await workspace());
    await hermes.prompt(sessionId, "/skills curate");
    const [learned, ...more] = learnedOf(sessionUpdates(hermes, sessionId));
    assert.deepEqual(more, []);
    assert.equal(learned?.kind, "skill");
    assert.match(learned?.what ?? "", /archived skill "old-helper" \(unused for 100 days\)/);
    assert.ok(!existsSync(file), "the skill left the skill folders");
    assert.ok(existsSync(path.join(hermes.home, "skills", "fresh-helper", "SKILL.md")), "a skill used recently stays");
    assert.ok(learned && existsSync(learned.where) && learned.where.startsWith(path.join(hermes.home, "skills-archive")), "kept in the archive");
    assert.match(agentText(hermes, sessionId), /Archived \(unused\): `old-helper`/);
    assert.equal(model.requests.length, 0, "archiving needs no model");

    await hermes.prompt(sessionId, "/skills");
    assert.doesNotMatch(agentText(hermes, sessionId).split("**Skills**").at(-1) ?? "", /old-helper/, "no longer listed");
    await hermes.prompt(sessionId, "/skills archived");
    assert.match(agentText(hermes, sessionId), /\*\*Archived skills\*\*[\s\S]*- `old-helper`, archived/);

    // The change's undo brings it back, fresh: the next pass leaves it.
    await hermes.prompt(sessionId, `/learned undo ${learned!.id}`);
    assert.match(agentText(hermes, sessionId), /the skill "old-helper" is back/);
    assert.ok(existsSync(file));
    await hermes.prompt(sessionId, "/skills curate");
    assert.match(agentText(hermes, sessionId), /Nothing to curate/);

    // /skills restore NAME does the same from the archive.
    const then = new Date(Date.now() - 200 * DAY_MS);
    utimesSync(file, then, then);
    await hermes.prompt(sessionId, "/skills curate");
    assert.ok(!existsSync(file));
    await hermes.prompt(sessionId, "/skills restore old-helper");
    assert.match(agentText(hermes, sessionId), /Restored "old-helper"/);
    assert.equal(readFileSync(file, "utf8"), skillText("old-helper", "Format the changelog the old way."));
    await hermes.prompt(sessionId, "/skills restore old-helper");
    assert.match(agentText(hermes, sessionId), /No archived skill named "old-helper"/);
    assert.deepEqual(hermes.invalidUpdates, []);
  } finally {
    await hermes.close();
  }
});

test("/skills curate with the model: overlapping skills are merged, a failing one is patched, an unsafe rewrite is refused; each change is announced", async (t) => {
  const model = await startScriptedModel();
  t.after(() => model.close());
  const hermes = await startAgent({ config: scriptedConfig(model.url, { learning: { review: "off", curator: "off" } }) });
  try {
    await hermes.initialize();
    userSkill(hermes, "deploy-staging", "Deploy the web app to the staging server with docker compose.");
    userSkill(hermes, "staging-deploy", "Deploy web app to staging server via docker compose.");
    const flaky = userSkill(hermes, "flaky-tests", "Rerun the flaky integration tests.", 0, "1. Run npm test.\n");
    userSkill(hermes, "write-docs", "Write the API reference pages.");
    const now = new Date().toISOString();
    writeFileSync(
      path.join(hermes.home, "skill-usage.json"),
      JSON.stringify({ version: 1, skills: { "flaky-tests": { views: 3, invocations: 0, successes: 0, failures: 3, lastUsed: now, lastSession: "session-x" } } }),
    );
    const merged = skillText("deploy-staging", "Deploy the web app to the staging server with docker compose.", "1. docker compose -f staging.yml up -d\n2. Check the health URL.\n");
    const poisoned = skillText("deploy-staging", "Deploy to staging.", `${PLAIN_PAYLOADS[0]}\n`);
    model.enqueue(
      { toolCalls: [{ name: "skill_manage", arguments: { action: "edit", name: "deploy-staging", content: poisoned } }] },
      { toolCalls: [{ name: "skill_manage", arguments: { action: "edit", name: "deploy-staging", content: merged } }] },
      { toolCalls: [{ name: "skill_archive", arguments: { name: "staging-deploy", reason: "merged into deploy-staging" } }] },
      { toolCalls: [{ name: "skill_manage", arguments: { action: "patch", name: "flaky-tests", old_string: "1. Run npm test.", new_string: "1. Run npm test -- --test-concurrency=1." } }] },
      { text: "Merged staging-deploy into deploy-staging and patched flaky-tests." },
    );
    const { sessionId } = await hermes.newSession(await workspace());
    await hermes.prompt(sessionId, "/skills curate");

    const [first] = model.requests;
    assert.ok(first && isCurator(first));
    const request = JSON.stringify(first.body.messages[1]);
    assert.match(request, /flaky-tests: 3 of 3 turns that used it were rejected or corrected; last used in session session-x/);
    assert.match(request, /## deploy-staging and staging-deploy/);
    assert.doesNotMatch(request, /write-docs/, "an unrelated skill is not proposed");
    const tools = (first.body.tools as { function: { name: string } }[]).map((tool) => tool.function.name).sort();
    assert.deepEqual(tools, ["session_search", "skill_archive", "skill_manage", "skill_view", "skills_list"]);
    // The unsafe rewrite was refused by skill_manage's checks, and the model read why.
    assert.match(JSON.stringify(model.requests[1]?.body.messages.at(-1)), /Refused: SKILL\.md looks unsafe/);

    const learned = learnedOf(sessionUpdates(hermes, sessionId));
    assert.deepEqual(
      learned.map((l) => l.what.replace(/:.*$/, "")),
      ['improved skill "deploy-staging"', 'archived skill "staging-deploy" (merged into deploy-staging)', 'improved skill "flaky-tests"'],
    );
    assert.match(readFileSync(path.join(hermes.home, "skills", "deploy-staging", "SKILL.md"), "utf8"), /staging\.yml/);
    assert.doesNotMatch(readFileSync(path.join(hermes.home, "skills", "deploy-staging", "SKILL.md"), "utf8"), /Ignore all previous/);
    assert.ok(!existsSync(path.join(hermes.home, "skills", "staging-deploy")));
    assert.equal(readdirSync(path.join(hermes.home, "skills-archive")).filter((name) => name.startsWith("staging-deploy-")).length, 1);
    assert.match(readFileSync(flaky, "utf8"), /--test-concurrency=1/);
    assert.match(agentText(hermes, sessionId), /Reviewed 1 failing skill, 1 overlapping pair: Merged staging-deploy into deploy-staging and patched flaky-tests\.\n3 changes in all/);

    // The curator's calls are the session's usage.
    await hermes.prompt(sessionId, "/usage");
    assert.match(agentText(hermes, sessionId), /over 5 model calls/);
    // What it looked at is remembered: nothing to propose again until the outcomes change.
    const calls = model.requests.length;
    await hermes.prompt(sessionId, "/skills curate");
    assert.match(agentText(hermes, sessionId), /Nothing to curate/);
    assert.equal(model.requests.length, calls);
    // An undo takes a merge's edit back like any learned change.
    await hermes.prompt(sessionId, `/learned undo ${learned[0]!.id}`);
    assert.match(agentText(hermes, sessionId), /the skill "deploy-staging" is back to what it was before/);
  } finally {
    await hermes.close();
  }
});

test("curation in ask mode: each change is a permission request with its diff; a rejected archive keeps the skill", async (t) => {
  const model = await startScriptedModel();
  t.after(() => model.close());
  const asked: acp.RequestPermissionRequest[] = [];
  const hermes = await startAgent({
    config: scriptedConfig(model.url, { learning: { review: "ask", curator: "off", archive_after_days: 30 } }),
    permission: (request) => {
      asked.push(request);
      return request.toolCall.title?.includes("keep-me") ? "reject_once" : "allow_once";
    },
  });
  try {
    await hermes.initialize();
    const keep = userSkill(hermes, "keep-me", "An old procedure the user still wants.", 60);
    const drop = userSkill(hermes, "drop-me", "An old procedure nobody uses.", 60);
    const { sessionId } = await hermes.newSession(await workspace());
    await hermes.prompt(sessionId, "/skills curate");
    assert.equal(asked.length, 2);
    const ask = asked.find((request) => request.toolCall.title?.includes("drop-me"));
    assert.match(ask?.toolCall.title ?? "", /Curate: archive skill "drop-me" \(unused for 60 days\)/);
    const diff = ask?.toolCall.content?.find((c) => c.type === "diff");
    assert.ok(diff?.type === "diff" && diff.path === drop && diff.newText === "" && diff.oldText?.includes("nobody uses"));
    assert.ok(existsSync(keep), "the rejected archive wrote nothing");
    assert.ok(!existsSync(drop));
    assert.deepEqual(learnedOf(sessionUpdates(hermes, sessionId)).map((l) => l.what), ['archived skill "drop-me" (unused for 60 days)']);
    assert.match(agentText(hermes, sessionId), /Kept at your request: `keep-me`/);
  } finally {
    await hermes.close();
  }
});

test("the background pass: runs after a turn when due (remembered for the whole home), then not again within the interval", async (t) => {
  const model = await startScriptedModel();
  t.after(() => model.close());
  const hermes = await startAgent({ config: scriptedConfig(model.url, { learning: { review: "off", curator: "on", archive_after_days: 30 } }) });
  try {
    await hermes.initialize();
    const stale = userSkill(hermes, "stale-skill", "Something from long ago.", 45);
    // Another process ran a pass two days ago: not due yet.
    const stateFile = path.join(hermes.home, "learning", "curator.json");
    mkdirSync(path.dirname(stateFile), { recursive: true });
    writeFileSync(stateFile, JSON.stringify({ lastRun: new Date(Date.now() - 2 * DAY_MS).toISOString(), seen: {} }));
    const { sessionId } = await hermes.newSession(await workspace());
    model.enqueue({ text: "Hello." });
    await hermes.prompt(sessionId, "hello");
    await hermes.waitForLog("curator pass not due");
    assert.ok(existsSync(stale));

    // Eight days ago: the next turn starts a pass in the background.
    writeFileSync(stateFile, JSON.stringify({ lastRun: new Date(Date.now() - 8 * DAY_MS).toISOString(), seen: {} }));
    model.enqueue({ text: "Hi again." });
    const response = await hermes.prompt(sessionId, "hello again");
    assert.equal(response.stopReason, "end_turn");
    const announced = await hermes.waitForUpdate((u) => learnedOf([u]).length > 0);
    await hermes.waitForLog("curator pass finished");
    assert.ok(!existsSync(stale));
    const [learned] = learnedOf([announced]);
    assert.match(learned?.what ?? "", /archived skill "stale-skill" \(unused for 45 days\)/);
    const state = JSON.parse(readFileSync(stateFile, "utf8")) as { lastRun: string; startedAt?: string };
    assert.ok(Date.now() - Date.parse(state.lastRun) < DAY_MS, "the pass is recorded as the last run");
    assert.equal(state.startedAt, undefined);

    model.enqueue({ text: "Still here." });
    await hermes.prompt(sessionId, "one more");
    await hermes.waitForLog("curator pass not due", 2);
    assert.equal(hermes.logs.filter((line) => line.message === "curator pass started").length, 1);
  } finally {
    await hermes.close();
  }
});
