// Builds the bundles named in the design. Only the agent server exists so far:
// dist/hermes.js, one ESM file for Node 20+, with a source map.
import { build } from "esbuild";
import { readFileSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));

await build({
  entryPoints: ["acp-server/main.ts"],
  outfile: "dist/hermes.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  legalComments: "none",
  logLevel: "warning",
  define: { HERMES_VERSION: JSON.stringify(pkg.version) },
  // Some bundled CommonJS dependencies call require(); give the ESM bundle one.
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __hermesCreateRequire } from 'node:module';\nconst require = __hermesCreateRequire(import.meta.url);",
  },
});
