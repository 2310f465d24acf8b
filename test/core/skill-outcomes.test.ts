// Skills that prove themselves, in process over the real protocol: a turn that loaded a skill
// counts as a success when it ends well and becomes a failure when the next prompt corrects it;
// /skills shows uses, last use and the success rate. A patch keeps the previous version:
// /skills history lists it and /skills revert brings it back (keeping the replaced one).
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { agentText, makeTempDir, scriptedConfig, startAgent, type InProcessAgent } from "../support/in-process-agent";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();

const SKILL = `---
name: deploy-steps
description: Deploy the service. Use when asked to deploy.
version: 1.0.0
---
1. Run the tests.
2. Deploy to staging.
`;

async function answerOf(hermes: InProcessAgent, sessionId: string, prompt: string): Promise<string> {
  const before = agentText(hermes, sessionId).length;
  await hermes.prompt(sessionId, prompt);
  return agentText(hermes, sessionId).slice(before);
}

test("outcomes per skill: a good turn is a success, a correction next turns it into a failure; /skills shows the rate", async () => {
  const model = scripted();
  const cwd = await makeTempDir();
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    mkdirSync(path.join(hermes.home, "skills", "deploy-steps"), { recursive: true });
    writeFileSync(path.join(hermes.home, "skills", "deploy-steps", "SKILL.md"), SKILL);
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(cwd);
    model.enqueue({ toolCalls: [{ name: "skill_view", arguments: { name: "deploy-steps" } }] }, { text: "Deployed to staging." });
    await hermes.prompt(sessionId, "deploy it");
    assert.match(await answerOf(hermes, sessionId, "/skills"), /`\/deploy-steps` \(user, v1\.0\.0, used 1× \(1 loaded, 0 invoked\), last \d{4}-\d\d-\d\d, 1\/1 went well\)/);

    model.enqueue({ text: "Sorry, deploying to production instead." });
    await hermes.prompt(sessionId, "no, that was the wrong environment");
    assert.match(await answerOf(hermes, sessionId, "/skills"), /`\/deploy-steps` \(user, v1\.0\.0, used 1× .*, 0\/1 went well\)/);

    // Invoked as a command and accepted: 1 of 2.
    model.enqueue({ text: "Done." });
    await hermes.prompt(sessionId, "/deploy-steps staging only");
    model.enqueue({ text: "You're welcome." });
    await hermes.prompt(sessionId, "thanks");
    assert.match(await answerOf(hermes, sessionId, "/skills"), /used 2× \(1 loaded, 1 invoked\), last .*, 1\/2 went well\)/);
  } finally {
    await hermes.close();
  }
});

test("versions: a patch keeps the previous SKILL.md; /skills history lists it and /skills revert brings it back", async () => {
  const model = scripted();
  const cwd = await makeTempDir();
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    const file = path.join(hermes.home, "skills", "deploy-steps", "SKILL.md");
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, SKILL);
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(cwd);
    assert.match(await answerOf(hermes, sessionId, "/skills history deploy-steps"), /has no earlier versions kept/);

    model.enqueue(
      { toolCalls: [{ name: "skill_manage", arguments: { action: "patch", name: "deploy-steps", old_string: "2. Deploy to staging.", new_string: "2. Deploy to production." } }] },
      { text: "Patched." },
    );
    await hermes.prompt(sessionId, "the skill should deploy to production");
    const patched = readFileSync(file, "utf8");
    assert.match(patched, /version: 1\.0\.1/);
    assert.match(patched, /Deploy to production/);

    const history = await answerOf(hermes, sessionId, "/skills history deploy-steps");
    assert.match(history, /\*\*deploy-steps\*\* is at v1\.0\.1/);
    assert.match(history, /1\. v1\.0\.0, replaced /);

    assert.match(await answerOf(hermes, sessionId, "/skills revert deploy-steps"), /Reverted "deploy-steps" to v1\.0\.0/);
    assert.equal(readFileSync(file, "utf8"), SKILL);
    // The replaced text is kept too: revert again goes forward to it.
    assert.match(await answerOf(hermes, sessionId, "/skills history deploy-steps"), /1\. v1\.0\.1, replaced [\s\S]*2\. v1\.0\.0, replaced /);
    assert.match(await answerOf(hermes, sessionId, "/skills revert deploy-steps 1"), /Reverted "deploy-steps" to v1\.0\.1/);
    assert.equal(readFileSync(file, "utf8"), patched);
    assert.match(await answerOf(hermes, sessionId, "/skills revert deploy-steps 9"), /No version 9 of "deploy-steps"/);
    assert.match(await answerOf(hermes, sessionId, "/skills revert code-review"), /bundled with Hermes and read-only/);
  } finally {
    await hermes.close();
  }
});
