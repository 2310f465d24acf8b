// The build parses the shipped skills' frontmatter ahead of time (scripts/bundled-frontmatter.mjs)
// so a first session/new does not: every shipped skill must be in the table, under the very text
// skill-file.ts splits off at run time, with the data YAML gives for it; what the table cannot
// carry exactly is left out (and parsed at run time, errors included).
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { parseDocument } from "yaml";
import { bundledFrontmatter } from "../../scripts/bundled-frontmatter.mjs";
import { splitSkillFile } from "../../acp-server/skills/skill-file";
import { makeTempDirSync } from "../support/temp-dirs";

const SKILLS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../skills");

function shippedSkillFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name));
      else if (entry.name === "SKILL.md") found.push(path.join(dir, entry.name));
    }
  };
  walk(SKILLS);
  return found;
}

test("every shipped skill's frontmatter is in the build's table, with the data YAML gives for it", () => {
  const table = bundledFrontmatter(SKILLS);
  const files = shippedSkillFiles();
  assert.ok(files.length > 0, "skills ship with Hermes");
  for (const file of files) {
    const { frontmatterText } = splitSkillFile(readFileSync(file, "utf8"));
    const json = table[frontmatterText];
    assert.ok(json !== undefined, `${path.relative(SKILLS, file)} is in the table under the text skill-file.ts splits off`);
    assert.deepStrictEqual(JSON.parse(json), parseDocument(frontmatterText, { prettyErrors: false }).toJS());
  }
  assert.equal(Object.keys(table).length, files.length);
});

test("frontmatter the table cannot carry exactly is left to the run-time parser", () => {
  const dir = makeTempDirSync("hermes-frontmatter-");
  try {
    const skill = (name: string, text: string) => {
      mkdirSync(path.join(dir, name));
      writeFileSync(path.join(dir, name, "SKILL.md"), text);
    };
    skill("plain", "---\nname: plain\ndescription: Fine\ntags: [a, b]\nversion: 1.0\n---\nBody\n");
    skill("broken-yaml", "---\nname: broken\ndescription: [unclosed\n---\nBody\n");
    skill("not-a-map", "---\n- a\n- b\n---\nBody\n");
    skill("infinite", "---\nname: infinite\ndescription: x\nlimit: .inf\n---\nBody\n");
    skill("no-frontmatter", "Just a body\n");
    const table = bundledFrontmatter(dir);
    assert.deepStrictEqual(Object.keys(table), ["name: plain\ndescription: Fine\ntags: [a, b]\nversion: 1.0\n"]);
    assert.deepStrictEqual(JSON.parse(Object.values(table)[0]!), { name: "plain", description: "Fine", tags: ["a", "b"], version: 1 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
