// Build step (esbuild.config.mjs): the frontmatter of the skills Hermes ships (skills/), parsed at
// build time. The first session/new offers every skill as a slash command, so it reads the whole
// catalog, and parsing a dozen YAML frontmatters in a fresh process (the yaml parser's code still
// cold) was a large part of its time. The table maps each frontmatter's exact text to the data
// YAML gives for it; skills/skill-file.ts uses an entry only when a file's frontmatter is that very
// text (so an edited skill is parsed as usual) and hands out a fresh copy each time.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { isMap, parseDocument } from "yaml";

// As in skills/skill-file.ts (splitSkillFile). If the two ever differ, no entry matches and skills
// are parsed at run time as before; test/unit/bundled-frontmatter.test.ts catches that.
const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*$/m;

/** `<dir>/<skill>/SKILL.md` and `<dir>/<group>/<skill>/SKILL.md`, as the skill library finds them. */
function skillFiles(dir) {
  const files = [];
  const folders = (at) => readdirSync(at, { withFileTypes: true }).filter((entry) => entry.isDirectory() && !entry.name.startsWith("."));
  const isFile = (file) => {
    try {
      return statSync(file).isFile();
    } catch {
      return false;
    }
  };
  for (const folder of folders(dir)) {
    const direct = path.join(dir, folder.name, "SKILL.md");
    if (isFile(direct)) files.push(direct);
    else for (const inner of folders(path.join(dir, folder.name))) if (isFile(path.join(dir, folder.name, inner.name, "SKILL.md"))) files.push(path.join(dir, folder.name, inner.name, "SKILL.md"));
  }
  return files.sort();
}

/**
 * Frontmatter text → the JSON of what YAML makes of it, for every skill under `skillsDir` whose
 * frontmatter is a well-formed YAML mapping that JSON carries unchanged (anything else is left to
 * the run-time parser, which also reports the errors).
 */
export function bundledFrontmatter(skillsDir) {
  const table = {};
  for (const file of skillFiles(skillsDir)) {
    const text = readFileSync(file, "utf8");
    const opening = OPENING.exec(text);
    if (!opening) continue;
    const rest = text.slice(opening[0].length);
    const closing = CLOSING.exec(rest);
    if (!closing) continue;
    const frontmatterText = rest.slice(0, closing.index);
    // The options skill-file.ts parses with.
    const document = parseDocument(frontmatterText, { prettyErrors: false });
    if (document.errors.length > 0 || document.contents === null || !isMap(document.contents)) continue;
    const data = document.toJS();
    const json = JSON.stringify(data);
    if (!isDeepStrictEqual(JSON.parse(json), data)) continue;
    table[frontmatterText] = json;
  }
  return table;
}
