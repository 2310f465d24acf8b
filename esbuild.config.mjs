// Builds the three bundles named in the design:
// - dist/hermes.js: the agent server, an ESM entry for Node 20+. Code that is not needed to
//   answer `initialize` (config parsing, tools, the loop, provider SDKs) is imported
//   dynamically and lands in dist/chunks/, loaded on first use: cold start is a product feature.
// - dist/extension.cjs: the VS Code extension host side. CommonJS because VS Code require()s
//   extensions, and .cjs because this package is "type": "module".
// - dist/webview.js + dist/webview.css: the chat panel, one browser bundle.
import { build } from "esbuild";
import { copyFileSync, readFileSync, rmSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));

// zod re-exports every locale's error messages (~300 KB) that Hermes never uses; keep English,
// which zod configures by default, and skip compiling the rest at every start.
const zodEnglishOnly = {
  name: "zod-english-only",
  setup(build) {
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      loader: "js",
      resolveDir: args.path.replace(/[\\/]index\.js$/, ""),
    }));
  },
};

rmSync(new URL("./dist", import.meta.url), { recursive: true, force: true });

const production = process.env.NODE_ENV === "production";

const serverBuild = build({
  entryPoints: { hermes: "acp-server/main.ts" },
  outdir: "dist",
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  legalComments: "none",
  logLevel: "warning",
  plugins: [zodEnglishOnly],
  define: { HERMES_VERSION: JSON.stringify(pkg.version) },
  // Some bundled CommonJS dependencies call require(); give the ESM output one.
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __hermesCreateRequire } from 'node:module';\nconst require = __hermesCreateRequire(import.meta.url);",
  },
});

const extensionBuild = build({
  entryPoints: { extension: "extension/extension.ts" },
  outdir: "dist",
  outExtension: { ".js": ".cjs" },
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  external: ["vscode"],
  sourcemap: true,
  minify: production,
  legalComments: "none",
  logLevel: "warning",
  plugins: [zodEnglishOnly],
  define: { HERMES_VERSION: JSON.stringify(pkg.version) },
});

const webviewBuild = build({
  entryPoints: { webview: "webview-ui/main.tsx" },
  outdir: "dist",
  bundle: true,
  platform: "browser",
  format: "iife",
  target: ["chrome120"],
  jsx: "automatic",
  jsxImportSource: "preact",
  sourcemap: true,
  minify: true,
  legalComments: "none",
  logLevel: "warning",
  plugins: [zodEnglishOnly],
  loader: { ".ttf": "file", ".woff2": "file" },
});

await Promise.all([serverBuild, extensionBuild, webviewBuild]);

// sql.js (the session index) loads its WebAssembly at run time; ship it beside the bundle.
copyFileSync(new URL("./node_modules/sql.js/dist/sql-wasm.wasm", import.meta.url), new URL("./dist/sql-wasm.wasm", import.meta.url));
