// Skill usage that could not be written or read is no evidence that a skill went unused: the
// curator must not archive a skill on counts it knows are stale or unreadable.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { curationCandidates } from "../../acp-server/learning/curator-candidates";
import { readCuratorState } from "../../acp-server/learning/curator-state";
import type { Skill } from "../../acp-server/skills/library";
import { readSkillUsageChecked, recordSkillUse, unrecordedSkillUses, usageFile } from "../../acp-server/skills/usage-store";

const homes: string[] = [];
after(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

const DAY_MS = 24 * 60 * 60 * 1000;

/** A home with one user skill whose SKILL.md was last written 100 days ago. */
function homeWithOldSkill(name: string): { home: string; skill: Skill } {
  const home = mkdtempSync(path.join(os.tmpdir(), "hermes-usage-fail-"));
  homes.push(home);
  const dir = path.join(home, "skills", name);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "SKILL.md");
  const text = `---\nname: ${name}\ndescription: a test skill\n---\nbody\n`;
  writeFileSync(file, text);
  const old = new Date(Date.now() - 100 * DAY_MS);
  utimesSync(file, old, old);
  const skill: Skill = { name, description: "a test skill", tags: [], source: "user", dir, file, frontmatter: { name, description: "a test skill", tags: [] }, body: "body\n", text };
  return { home, skill };
}

function candidatesFor(home: string, skill: Skill) {
  const usage = readSkillUsageChecked(home);
  return curationCandidates([skill], {
    usage: usage.skills,
    state: readCuratorState(home),
    archiveAfterDays: 30,
    unrecorded: unrecordedSkillUses(home),
    ...(usage.problem ? { usageProblem: usage.problem } : {}),
  });
}

test("control: an old skill nobody used is an archive candidate", () => {
  const { home, skill } = homeWithOldSkill("never-used");
  assert.deepEqual(candidatesFor(home, skill).unused.map((entry) => entry.skill.name), ["never-used"]);
});

test("a skill whose use could not be recorded is not archived as unused", () => {
  const { home, skill } = homeWithOldSkill("used-but-unrecorded");
  // A folder where the usage file should be: the atomic rename onto it fails.
  mkdirSync(usageFile(home));
  assert.equal(recordSkillUse(home, skill.name, "view", "s1"), false);
  assert.ok(unrecordedSkillUses(home).has(skill.name));
  // The obstacle goes before the curator runs: the file is readable again (missing), its counts stale.
  rmSync(usageFile(home), { recursive: true });
  assert.equal(readSkillUsageChecked(home).problem, undefined);
  assert.deepEqual(candidatesFor(home, skill).unused, []);
});

test("a later use that is recorded clears the mark", () => {
  const { home, skill } = homeWithOldSkill("recorded-later");
  mkdirSync(usageFile(home));
  recordSkillUse(home, skill.name, "view");
  rmSync(usageFile(home), { recursive: true });
  assert.equal(recordSkillUse(home, skill.name, "view"), true);
  assert.equal(unrecordedSkillUses(home).has(skill.name), false);
  assert.deepEqual(candidatesFor(home, skill).unused, [], "recently used by its counts");
});

test("unreadable usage counts archive nothing, and say why", () => {
  const { home, skill } = homeWithOldSkill("counts-unreadable");
  writeFileSync(usageFile(home), "{ not json");
  const usage = readSkillUsageChecked(home);
  assert.match(String(usage.problem), /not valid JSON/);
  assert.deepEqual(candidatesFor(home, skill).unused, []);
});

test("a missing usage file is no problem: nothing was used yet", () => {
  const { home } = homeWithOldSkill("no-file");
  assert.deepEqual(readSkillUsageChecked(home), { skills: {} });
});
