// The skills curator over real ACP stdio with a scripted model, in `ask` mode: `/skills curate`
// proposes archiving a skill unused for months and merging two overlapping skills; the editor
// gets each change as a permission request with its diff, then a "Learned" update (text for
// any client, `_meta["hermes/learned"]` for ours) with its undo; `/skills restore` brings the
// archived skill back.
import type * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { CURATOR_MARK } from "../../acp-server/learning/curator";
import { agentText, makeTempDir, scriptedConfig, sessionUpdates, startHermes } from "../support/acp-harness";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();

type Learned = { id: string; kind: string; what: string; where: string; undo: string };

const learnedOf = (updates: acp.SessionUpdate[]): Learned[] =>
  updates.flatMap((update) => {
    const learned = (update as { _meta?: Record<string, unknown> })._meta?.["hermes/learned"] as Learned | undefined;
    return learned ? [learned] : [];
  });

function writeSkill(home: string, name: string, description: string, idleDays = 0): string {
  const dir = path.join(home, "skills", name);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "SKILL.md");
  writeFileSync(file, `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n\n1. Do it.\n`);
  if (idleDays) {
    const then = new Date(Date.now() - idleDays * 24 * 60 * 60 * 1000);
    utimesSync(file, then, then);
  }
  return file;
}

test("/skills curate over stdio: archive and merge proposed as diffs, approved, announced with undo; /skills restore", async () => {
  const model = scripted();
  const cwd = await makeTempDir("hermes-curator-it-");
  mkdirSync(path.join(cwd, ".git"));
  const hermes = await startHermes({ config: scriptedConfig(model.url, { learning: { review: "off", curator: "ask", archive_after_days: 30 } }), permission: "allow" });
  try {
    await hermes.initialize();
    const home = path.join(hermes.home);
    const old = writeSkill(home, "old-release", "Cut a release the way we did in 2024.", 120);
    writeSkill(home, "lint-fix", "Fix the lint errors in the TypeScript sources with eslint.");
    writeSkill(home, "eslint-fix", "Fix TypeScript lint errors in the sources using eslint.");
    const merged = `---\nname: lint-fix\ndescription: Fix the lint errors in the TypeScript sources with eslint.\n---\n# lint-fix\n\n1. npx eslint --fix on the changed files.\n2. Fix what is left by hand.\n`;
    model.enqueue(
      { toolCalls: [{ name: "skill_manage", arguments: { action: "edit", name: "lint-fix", content: merged } }] },
      { toolCalls: [{ name: "skill_archive", arguments: { name: "eslint-fix", reason: "merged into lint-fix" } }] },
      { text: "Merged eslint-fix into lint-fix." },
    );
    const { sessionId } = await hermes.newSession(cwd);
    const response = await hermes.prompt(sessionId, "/skills curate");
    assert.equal(response.stopReason, "end_turn");

    // Three changes, each asked about with its diff before it was made.
    const titles = hermes.permissionRequests.map((request) => request.toolCall.title);
    assert.deepEqual(titles, ['Curate: archive skill "old-release" (unused for 120 days)', 'Learn: change skill "lint-fix"', 'Curate: archive skill "eslint-fix" (merged into lint-fix)']);
    for (const request of hermes.permissionRequests) assert.ok(request.toolCall.content?.some((content) => content.type === "diff"));
    const learned = learnedOf(sessionUpdates(hermes, sessionId));
    assert.equal(learned.length, 3);
    for (const note of learned) assert.equal(note.undo, `/learned undo ${note.id}`);
    assert.match(agentText(hermes, sessionId), /Learned: archived skill "old-release"[\s\S]*\/learned undo l[0-9a-f]+/);
    assert.ok(model.requests.every((request) => String(request.body.messages[0].content).startsWith(CURATOR_MARK)));
    assert.ok(!existsSync(old) && !existsSync(path.join(home, "skills", "eslint-fix")));

    await hermes.prompt(sessionId, "/skills restore old-release");
    assert.match(agentText(hermes, sessionId), /Restored "old-release"/);
    assert.ok(existsSync(old));
    assert.deepEqual(hermes.invalidUpdates, []);
    assert.deepEqual(hermes.strayStdout, []);
  } finally {
    await hermes.close();
  }
});
