// Builds the bundles named in the design:
// - dist/hermes.js: the `hermes` executable, a small CommonJS entry (acp-server/main.ts) that
//   answers `initialize` before anything else loads: an ES module entry alone costs Node's ESM
//   loader about as much again as a bare Node start. dist/package.json marks dist/*.js as
//   CommonJS (the root package is "type": "module").
// - dist/chunks/app.mjs + dist/chunks/*.mjs: the rest of the server (acp-server/cli/app.ts), ESM
//   for Node 20+, code-split: config parsing, tools, the loop and the provider SDKs are imported
//   dynamically and load on first use: cold start is a product feature.
// - dist/extension.cjs: the VS Code extension host side. CommonJS because VS Code require()s
//   extensions, and .cjs because this package is "type": "module".
// - dist/webview.js + dist/webview.css: the chat panel, one browser bundle.
//
// The published npm package ships only the server (dist/hermes.js, dist/chunks/, the sql.js
// wasm) and skills/: every runtime dependency is bundled, so installing it fetches nothing else.
import { build } from "esbuild";
import { chmodSync, copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildId } from "./scripts/build-id.mjs";
import { bundledFrontmatter } from "./scripts/bundled-frontmatter.mjs";
import { lazySdkSchemas } from "./scripts/lazy-schemas.mjs";
import { REQUIRE_BANNER, withoutUnusedRequire } from "./scripts/require-banner.mjs";
import { playwrightFromVendor, vendorPlaywright } from "./scripts/vendor-playwright.mjs";

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

// turndown (web_fetch's HTML → markdown) requires the domino DOM at load, to parse HTML strings
// in Node. Hermes only hands it nodes linkedom already parsed, so domino (~450 KB) is left out:
// a stub stands in and throws if a string ever reaches it.
const noDomino = {
  name: "no-domino",
  setup(build) {
    build.onResolve({ filter: /^@mixmark-io\/domino$/ }, () => ({ path: "domino-stub", namespace: "no-domino" }));
    build.onLoad({ filter: /.*/, namespace: "no-domino" }, () => ({
      contents: 'module.exports = { createDocument() { throw new Error("turndown was given an HTML string; Hermes passes parsed nodes"); } };',
      loader: "js",
    }));
  },
};

// HERMES_BUILD_OUTDIR builds elsewhere, without replacing the dist/ the tests run from (a bench
// compares two builds this way).
const outdir = path.resolve(process.env.HERMES_BUILD_OUTDIR ?? fileURLToPath(new URL("./dist", import.meta.url)));
rmSync(outdir, { recursive: true, force: true });

const production = process.env.NODE_ENV === "production";

const serverEntryBuild = build({
  entryPoints: { hermes: "acp-server/main.ts" },
  outdir,
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  // Smaller to read and parse at every start (the source map has the names).
  minify: true,
  sourcemap: true,
  legalComments: "none",
  logLevel: "warning",
  plugins: [zodEnglishOnly],
  define: { HERMES_VERSION: JSON.stringify(pkg.version) },
  banner: { js: "#!/usr/bin/env node" },
});

const serverAppBuild = build({
  // chunks/plugin-tool-host: the process a plugin's JavaScript tools run in (acp-server/plugins/tool-host.ts).
  entryPoints: { "chunks/app": "acp-server/cli/app.ts", "chunks/plugin-tool-host": "acp-server/plugins/tool-host.ts" },
  outdir,
  outExtension: { ".js": ".mjs" },
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  legalComments: "none",
  logLevel: "warning",
  // lazySdkSchemas: the ACP SDK's ~300 zod schemas are built when first used, not at import
  // (scripts/lazy-schemas.mjs): the first session/new waits for the SDK's import.
  // playwrightFromVendor: the browser tools' engine is not bundled (it finds its own files from
  // __dirname) but shipped beside the chunks in dist/vendor/ (scripts/vendor-playwright.mjs).
  plugins: [zodEnglishOnly, noDomino, lazySdkSchemas, playwrightFromVendor],
  // HERMES_BUNDLED_FRONTMATTER: the shipped skills' frontmatter, parsed here rather than by every
  // first session/new (scripts/bundled-frontmatter.mjs).
  // HERMES_BUILD_ID: which build this is (scripts/build-id.mjs), the key of caches of what the code computes.
  define: {
    HERMES_VERSION: JSON.stringify(pkg.version),
    HERMES_BUNDLED_FRONTMATTER: JSON.stringify(JSON.stringify(bundledFrontmatter(fileURLToPath(new URL("./skills", import.meta.url))))),
    HERMES_BUILD_ID: JSON.stringify(buildId(fileURLToPath(new URL(".", import.meta.url)))),
  },
  // Some bundled CommonJS dependencies call require(); give the ESM output one (kept only in the
  // chunks that use it: scripts/require-banner.mjs, below).
  banner: { js: REQUIRE_BANNER },
});

// The yaml package on its own, CommonJS, beside the chunks: util/yaml.ts require()s it the first time
// YAML is read or written, so starts that read none (config.yaml cached, bundled skills) never compile it.
const yamlBuild = build({
  entryPoints: { "chunks/yaml": fileURLToPath(new URL("./node_modules/yaml/dist/index.js", import.meta.url)) },
  outdir,
  outExtension: { ".js": ".cjs" },
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  minify: true,
  legalComments: "none",
  logLevel: "warning",
});

const extensionBuild = build({
  entryPoints: { extension: "extension/extension.ts" },
  outdir,
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
  // The extension host (VS Code on Node 22+) defines a global `navigator` getter that throws
  // PendingMigrationError, to catch extensions that take Node for a browser; zod probes
  // `typeof navigator` (for Cloudflare) and would log that error at activation. There is no
  // browser here: the bundle sees no navigator at all.
  define: { HERMES_VERSION: JSON.stringify(pkg.version), navigator: "undefined" },
});

const webviewBuild = build({
  entryPoints: { webview: "webview-ui/main.tsx" },
  outdir,
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

await Promise.all([serverEntryBuild, serverAppBuild, yamlBuild, extensionBuild, webviewBuild]);

for (const name of readdirSync(path.join(outdir, "chunks"))) {
  if (!name.endsWith(".mjs")) continue;
  const file = path.join(outdir, "chunks", name);
  const code = readFileSync(file, "utf8");
  const trimmed = withoutUnusedRequire(code);
  if (trimmed !== code) writeFileSync(file, trimmed);
}

// dist/hermes.js is CommonJS inside a "type": "module" package; the chunks are .mjs either way.
writeFileSync(path.join(outdir, "package.json"), `${JSON.stringify({ type: "commonjs" })}\n`);

// sql.js (the session index) loads its WebAssembly at run time; ship it beside the bundle.
copyFileSync(new URL("./node_modules/sql.js/dist/sql-wasm.wasm", import.meta.url), path.join(outdir, "sql-wasm.wasm"));

// The browser tools' engine, imported by the chunks from dist/vendor/ (scripts/vendor-playwright.mjs).
vendorPlaywright(fileURLToPath(new URL(".", import.meta.url)), outdir);

// esbuild writes files without the execute bit. dist/hermes.js is the package's `bin` and starts
// with a shebang: keep it executable after every build, so `npx hermes` and ./dist/hermes.js run
// from a checkout (npm sets the bit itself only when it installs a package).
chmodSync(path.join(outdir, "hermes.js"), 0o755);
