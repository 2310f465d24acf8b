// The .vsix is packed from an allow-list (.vscodeignore): a file the agent loads at run time that
// the list does not name is left out of the extension, and the packaged agent breaks only for
// users (dist/chunks/yaml.cjs was missing once: every cache miss of config.yaml failed as
// "invalid YAML: Cannot find module './yaml.cjs'"). Every built file except source maps must be
// named. Runs on the build `npm test` made (integration tests spawn the same dist/).
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";

const root = path.resolve(import.meta.dirname, "../..");

/** vsce's patterns as used here: `**` spans folders, `*` stays inside one. */
function globToRegExp(pattern: string): RegExp {
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] as string;
    if (char === "*" && pattern[i + 1] === "*") {
      source += ".*";
      i++;
    } else if (char === "*") source += "[^/]*";
    else source += /[\\^$.|?+()[\]{}]/.test(char) ? `\\${char}` : char;
  }
  return new RegExp(`^${source}$`);
}

function filesUnder(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"));
}

test(".vscodeignore lets every built file but source maps into the .vsix", () => {
  const allowed = readFileSync(path.join(root, ".vscodeignore"), "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.startsWith("!"))
    .map((line) => globToRegExp(line.slice(1)));
  const built = filesUnder("dist").filter((file) => !file.endsWith(".map"));
  assert.ok(built.includes("dist/hermes.js") && built.includes("dist/chunks/yaml.cjs"), `dist/ is not built: ${built.length} files`);
  const missing = built.filter((file) => !allowed.some((pattern) => pattern.test(file)));
  assert.deepEqual(missing, [], "built files the .vsix would leave out");
  // And the list stays an allow-list: source maps are not shipped.
  assert.ok(!allowed.some((pattern) => pattern.test("dist/hermes.js.map")));
});
