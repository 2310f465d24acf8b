// Compiles the unit, core and integration tests once, for `npm test` (see "Running the tests" in
// README.md): each test/**/*.test.ts becomes .test-build/<dir>/<name>.test.mjs, plain ES modules
// that `node --test` runs with no TypeScript loader.
//
// WHY: every test file runs in its own process. Under `--import tsx` each of those processes
// starts tsx's loader thread and sends every imported module through its resolve and load hooks,
// and transforms each .ts file it imports: about as much CPU again as a bare Node start per file,
// more for files that load large parts of acp-server. Compiling the ~190 files together, once,
// costs a few seconds; the test processes then load plain JavaScript.
//
// What stays as it was under tsx:
// - Packages in node_modules stay external: Node loads them itself, as it did under tsx.
// - `import.meta.url`, `import.meta.dirname` and `import.meta.filename` in repository files are
//   replaced by the values of the ORIGINAL source file: tests and sources find fixtures, skills/,
//   the sql.js wasm and dist/ relative to themselves (sessions/sqlite.ts, skills/sources.ts, ...).
//   `import.meta.resolve` is left alone: it resolves bare package names only, and the output sits
//   inside the repository, so it resolves from the same node_modules.
// - Source maps, with stack traces mapped (the test script passes --enable-source-maps, as tsx
//   enabled them): a failure points at the .ts line, and tests that look for their own file name in
//   a stack still see it.
// - No build-time defines (HERMES_VERSION, HERMES_BUILD_ID, ...): sources see them undefined, as
//   under tsx, and behave as a development checkout.
// - Child processes the tests start (`node --import tsx some.ts`, dist/hermes.js) are untouched.
import { build } from "esbuild";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const TEST_BUILD_DIR = path.join(root, ".test-build");
const TEST_DIRS = ["test/unit", "test/core", "test/integration"];

/** Every *.test.ts under the test directories, relative to the repository root, sorted. */
function testFiles() {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith(".test.ts")) files.push(relative);
    }
  };
  for (const dir of TEST_DIRS) walk(dir);
  return files.sort();
}

const LOADERS = { ".ts": "ts", ".mts": "ts", ".cts": "ts", ".tsx": "tsx", ".js": "js", ".mjs": "js", ".cjs": "js" };
const IMPORT_META_KEYS = new Set(["url", "dirname", "filename"]);

/** TypeScript's parser, loaded only when a file mentions import.meta (a dozen of ~600 do). */
let typescript;

/**
 * `source` with each `import.meta.url` / `.dirname` / `.filename` EXPRESSION replaced by the
 * string of `file`'s own value. Found through the syntax tree, not text: the same words inside a
 * string or comment stay as they are (scripts/require-banner.mjs holds one in a string).
 */
async function withOriginalImportMeta(source, file) {
  if (!source.includes("import.meta.")) return source;
  typescript ??= (await import("typescript")).default;
  const ts = typescript;
  const values = { url: pathToFileURL(file).href, dirname: path.dirname(file), filename: file };
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const edits = [];
  const visit = (node) => {
    if (
      ts.isPropertyAccessExpression(node) &&
      ts.isMetaProperty(node.expression) &&
      node.expression.keywordToken === ts.SyntaxKind.ImportKeyword &&
      IMPORT_META_KEYS.has(node.name.text)
    ) {
      edits.push({ start: node.getStart(tree), end: node.getEnd(), text: JSON.stringify(values[node.name.text]) });
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  let out = source;
  for (const edit of edits.reverse()) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

/** Gives each repository module its own file's `import.meta` values instead of the bundle's. */
const originalImportMeta = {
  name: "original-import-meta",
  setup(build) {
    build.onLoad({ filter: /\.([cm]?[jt]s|tsx)$/ }, async (args) => {
      if (args.path.split(path.sep).includes("node_modules")) return undefined;
      const contents = await withOriginalImportMeta(readFileSync(args.path, "utf8"), args.path);
      return { contents, loader: LOADERS[path.extname(args.path)] ?? "js" };
    });
  },
};

rmSync(TEST_BUILD_DIR, { recursive: true, force: true });

await build({
  absWorkingDir: root,
  entryPoints: testFiles(),
  outbase: "test",
  outdir: TEST_BUILD_DIR,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  packages: "external",
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  sourcesContent: false,
  logLevel: "warning",
  plugins: [originalImportMeta],
});
