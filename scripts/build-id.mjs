// The identity of a build of the server: a hash of every source file under acp-server/ and of
// package-lock.json (the bundled dependencies, zod and yaml among them). Caches of what this code
// computes (config/config-cache.ts) are keyed by it, so any change of the code, or of a
// dependency, is a different build whose entries are never taken for its own.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export function buildId(root) {
  const hash = createHash("sha256");
  const files = [...sourceFiles(path.join(root, "acp-server")), path.join(root, "package-lock.json")];
  for (const file of files) {
    hash.update(`${path.relative(root, file)}\0`);
    hash.update(readFileSync(file));
    hash.update("\0");
  }
  return hash.digest("hex");
}

function sourceFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(full));
    else if (entry.isFile()) files.push(full);
  }
  return files;
}
