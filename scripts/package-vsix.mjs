// Builds hermes.vsix from the production bundles in dist/ (run by `npm run package` after the build).
//
// package.json is both the npm manifest and the VS Code extension manifest. Its `files` list
// describes the npm package (server bundle + skills only), while .vscodeignore describes the
// .vsix (server, extension host, panel, media). vsce refuses to package when both exist, so the
// extension is packaged from a staging folder whose package.json has no `files` field.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const out = path.resolve(root, process.argv[2] ?? "hermes.vsix");
const stage = mkdtempSync(path.join(os.tmpdir(), "hermes-vsix-"));

try {
  const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  delete manifest.files;
  writeFileSync(path.join(stage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const entry of [".vscodeignore", "README.md", "LICENSE", "dist", "media", "skills"]) {
    cpSync(path.join(root, entry), path.join(stage, entry), { recursive: true });
  }
  const vsce = path.join(root, "node_modules", ".bin", "vsce");
  const result = spawnSync(vsce, ["package", "--no-dependencies", "--out", out], { cwd: stage, stdio: "inherit" });
  if (result.error) throw result.error;
  process.exitCode = result.status ?? 1;
} finally {
  rmSync(stage, { recursive: true, force: true });
}
