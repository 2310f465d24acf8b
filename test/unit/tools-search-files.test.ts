import assert from "node:assert/strict";
import { chmod, mkdir, symlink, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, afterEach, describe, test } from "node:test";
import { walkFiles } from "../../acp-server/tools/file-walker";
import { compileGlob, globMatches, IgnoreMatcher } from "../../acp-server/util/path-match";
import { ToolError } from "../../acp-server/tools/registry";
import { ripgrepPath, setRipgrepPath } from "../../acp-server/tools/ripgrep";
import { clipLine, searchFilesTool } from "../../acp-server/tools/search-files";
import { recordingContext, tempDir } from "../support/tool-context";

const realRipgrep = ripgrepPath();
after(() => setRipgrepPath(undefined));

async function put(root: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), content);
  }
}

async function run(cwd: string, args: Record<string, unknown>, signal?: AbortSignal) {
  const result = await searchFilesTool.handler(searchFilesTool.schema.parse(args), recordingContext({ cwd, signal }));
  return result.output as Record<string, any>;
}

async function walk(root: string, signal?: AbortSignal): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of walkFiles(root, { signal })) found.push(entry.relative);
  return found;
}

describe("gitignore matcher", () => {
  const base = path.resolve("/repo");
  const cases: [pattern: string, file: string, isDir: boolean, ignored: boolean][] = [
    ["*.log", "a.log", false, true],
    ["*.log", "deep/dir/b.log", false, true],
    ["*.log", "a.txt", false, false],
    ["build/", "build", true, true],
    ["build/", "build", false, false],
    ["build/", "src/build", true, true],
    ["/root.txt", "root.txt", false, true],
    ["/root.txt", "sub/root.txt", false, false],
    ["doc/*.txt", "doc/a.txt", false, true],
    ["doc/*.txt", "doc/x/a.txt", false, false],
    ["doc/*.txt", "other/doc/a.txt", false, false],
    ["**/foo", "foo", false, true],
    ["**/foo", "a/b/foo", true, true],
    ["a/**/b", "a/b", false, true],
    ["a/**/b", "a/x/y/b", false, true],
    ["a/**/b", "a/x/c", false, false],
    ["logs/**", "logs/x", false, true],
    ["logs/**", "logs/x/y", false, true],
    ["logs/**", "logs", true, false],
    ["*.log\n!keep.log", "keep.log", false, false],
    ["*.log\n!keep.log", "other.log", false, true],
    ["!keep.log\n*.log", "keep.log", false, true],
    ["# comment", "# comment", false, false],
    ["\\#hash", "#hash", false, true],
    ["\\!bang", "!bang", false, true],
    ["file?.txt", "file1.txt", false, true],
    ["file?.txt", "file10.txt", false, false],
    ["[abc].md", "a.md", false, true],
    ["[abc].md", "d.md", false, false],
    ["[!abc].md", "d.md", false, true],
    ["[!abc].md", "a.md", false, false],
    ["[0-9]x", "7x", false, true],
    ["trailing   ", "trailing", false, true],
    ["a**b", "axyzb", false, true],
    ["*", "anything/at/all", false, true],
    ["dist", "dist", true, true],
    ["dist", "src/dist", false, true],
    ["src/*.js", "src/a.js", false, true],
    ["", "x", false, false],
  ];
  for (const [pattern, file, isDir, ignored] of cases) {
    test(`${JSON.stringify(pattern)} ${ignored ? "ignores" : "keeps"} ${file}${isDir ? "/" : ""}`, () => {
      const matcher = IgnoreMatcher.empty.with(base, pattern);
      assert.equal(matcher.ignores(path.join(base, file), isDir), ignored);
    });
  }

  test("rules of a nested .gitignore apply relative to its folder and override outer ones", () => {
    const matcher = IgnoreMatcher.empty.with(base, "*.tmp\n/top.txt").with(path.join(base, "sub"), "!keep.tmp\n/local.txt");
    assert.equal(matcher.ignores(path.join(base, "x.tmp"), false), true);
    assert.equal(matcher.ignores(path.join(base, "sub/keep.tmp"), false), false);
    assert.equal(matcher.ignores(path.join(base, "sub/other.tmp"), false), true);
    assert.equal(matcher.ignores(path.join(base, "sub/local.txt"), false), true);
    assert.equal(matcher.ignores(path.join(base, "local.txt"), false), false);
    assert.equal(matcher.ignores(path.join(base, "sub/top.txt"), false), false);
  });

  test("globs: braces, ** and name-only matching", () => {
    const tsx = compileGlob("*.{ts,tsx}", { braces: true });
    assert.ok(globMatches(tsx, "src/a.tsx"));
    assert.ok(globMatches(tsx, "a.ts"));
    assert.ok(!globMatches(tsx, "a.js"));
    const tests = compileGlob("src/**/*.test.ts");
    assert.ok(globMatches(tests, "src/a.test.ts"));
    assert.ok(globMatches(tests, "src/x/y/a.test.ts"));
    assert.ok(!globMatches(tests, "lib/a.test.ts"));
    assert.ok(!globMatches(compileGlob("a.{x"), "a.x"));
    assert.ok(globMatches(compileGlob("a.{x", { braces: true }), "a.{x"));
    assert.ok(globMatches(compileGlob("README*", { ignoreCase: true }), "readme.md"));
  });
});

describe("file walker", () => {
  test("honours root and nested .gitignore, skips .git, node_modules and symlinks", async () => {
    const root = await tempDir();
    await put(root, {
      ".gitignore": "*.log\nbuild/\n",
      "a.ts": "",
      "debug.log": "",
      "build/out.js": "",
      "src/b.ts": "",
      "src/.gitignore": "generated.ts\n!important.log\n",
      "src/generated.ts": "",
      "src/important.log": "",
      "node_modules/pkg/index.js": "",
      ".git/config": "",
      ".github/ci.yml": "",
    });
    await symlink(path.join(root, "src"), path.join(root, "linked"));
    assert.deepEqual(await walk(root), [".github/ci.yml", ".gitignore", "a.ts", "src/.gitignore", "src/b.ts", "src/important.log"]);
  });

  test("applies .gitignore files of parent folders inside a git repository", async () => {
    const root = await tempDir();
    await put(root, { ".git/HEAD": "", ".gitignore": "secret.txt\n/sub/top-only.txt\n", "sub/secret.txt": "", "sub/top-only.txt": "", "sub/ok.txt": "" });
    assert.deepEqual(await walk(path.join(root, "sub")), ["ok.txt"]);
  });

  test("stops when the signal is aborted", async () => {
    const root = await tempDir();
    await put(root, { "a.txt": "", "b.txt": "" });
    const controller = new AbortController();
    controller.abort();
    assert.deepEqual(await walk(root, controller.signal), []);
  });
});

const backends: { name: string; rg: string | null }[] = [{ name: "JS walker", rg: null }];
if (realRipgrep) backends.push({ name: "ripgrep", rg: realRipgrep });

for (const backend of backends) {
  describe(`search_files (${backend.name})`, () => {
    afterEach(() => setRipgrepPath(undefined));
    const use = () => setRipgrepPath(backend.rg);

    async function project(): Promise<string> {
      const root = await tempDir();
      await put(root, {
        ".gitignore": "ignored/\n",
        "src/app.ts": "const alpha = 1;\nexport function hello() {\n  return alpha;\n}\n",
        "src/app.test.ts": "import { hello } from './app';\nhello();\n",
        "src/deep/util.ts": "export const ALPHA = 'x';\r\n",
        "README.md": "Alpha project\n",
        "z/a.ts": "order check\n",
        "z/a/b.ts": "order check\n",
        "z/a-b.ts": "order check\n",
        "ignored/skip.ts": "const alpha = 2;\n",
        "node_modules/dep/index.js": "alpha\n",
        "image.bin": Buffer.from([0x61, 0x6c, 0x70, 0x68, 0x61, 0x00, 0x01]),
      });
      return root;
    }

    test("content: regex matches with cwd-relative paths and line numbers", async () => {
      use();
      const root = await project();
      const output = await run(root, { pattern: "alpha" });
      assert.deepEqual(output.matches, [
        { path: "src/app.ts", line: 1, text: "const alpha = 1;" },
        { path: "src/app.ts", line: 3, text: "  return alpha;" },
      ]);
      assert.equal(output.total, 2);
      assert.equal(output.truncated, false);
    });

    test("content: ignore_case, file_glob, path and limit", async () => {
      use();
      const root = await project();
      const all = await run(root, { pattern: "alpha", ignore_case: true });
      assert.deepEqual(
        all.matches.map((m: { path: string }) => m.path),
        ["README.md", "src/app.ts", "src/app.ts", "src/deep/util.ts"],
      );
      assert.equal(all.matches[3].text, "export const ALPHA = 'x';");
      const globbed = await run(root, { pattern: "alpha", ignore_case: true, file_glob: "*.md" });
      assert.deepEqual(globbed.matches.map((m: { path: string }) => m.path), ["README.md"]);
      const nested = await run(root, { pattern: "alpha", ignore_case: true, path: "src", file_glob: "deep/*.ts" });
      assert.deepEqual(nested.matches.map((m: { path: string }) => m.path), ["src/deep/util.ts"]);
      const scoped = await run(root, { pattern: "hello", path: "src", file_glob: "*.test.ts" });
      assert.deepEqual(scoped.matches.map((m: { line: number }) => m.line), [1, 2]);
      const limited = await run(root, { pattern: "a", limit: 2 });
      assert.equal(limited.matches.length, 2);
      assert.equal(limited.truncated, true);
      assert.ok(limited.total > 2);
      assert.match(limited.note, /Showing 2 of/);
    });

    test("content: results come in depth-first name order", async () => {
      use();
      const root = await project();
      const output = await run(root, { pattern: "order check" });
      assert.deepEqual(output.matches.map((m: { path: string }) => m.path), ["z/a/b.ts", "z/a-b.ts", "z/a.ts"]);
    });

    test("content: a single file as path, and no matches", async () => {
      use();
      const root = await project();
      const single = await run(root, { pattern: "^hello", path: "src/app.test.ts" });
      assert.deepEqual(single.matches, [{ path: "src/app.test.ts", line: 2, text: "hello();" }]);
      const none = await run(root, { pattern: "zzz_not_there" });
      assert.deepEqual(none.matches, []);
      assert.match(none.note, /No matches/);
    });

    test("content: skips binary files and files over 2 MiB", async () => {
      use();
      const root = await tempDir();
      await put(root, {
        "bin.dat": Buffer.concat([Buffer.from("needle\n"), Buffer.from([0])]),
        "huge.txt": `needle\n${"x".repeat(2 * 1024 * 1024)}`,
        "small.txt": "needle\n",
      });
      const output = await run(root, { pattern: "needle" });
      assert.deepEqual(output.matches, [{ path: "small.txt", line: 1, text: "needle" }]);
    });

    test("files: globs, plain names, file_glob; newest first", async () => {
      use();
      const root = await project();
      await utimes(path.join(root, "src/app.ts"), new Date(2000, 1, 1), new Date(2000, 1, 1));
      await utimes(path.join(root, "src/deep/util.ts"), new Date(2010, 1, 1), new Date(2010, 1, 1));
      const ts = await run(root, { pattern: "*.ts", target: "files" });
      assert.deepEqual(ts.files.slice(-2), ["src/deep/util.ts", "src/app.ts"]);
      assert.deepEqual([...ts.files].sort(), ["src/app.test.ts", "src/app.ts", "src/deep/util.ts", "z/a-b.ts", "z/a.ts", "z/a/b.ts"]);
      const tests = await run(root, { pattern: "src/**/*.test.ts", target: "files" });
      assert.deepEqual(tests.files, ["src/app.test.ts"]);
      const named = await run(root, { pattern: "readme", target: "files" });
      assert.deepEqual(named.files, ["README.md"]);
      const byPath = await run(root, { pattern: "deep/util", target: "files" });
      assert.deepEqual(byPath.files, ["src/deep/util.ts"]);
      const inSrc = await run(root, { pattern: "*.ts", target: "files", path: "src", file_glob: "deep/**", limit: 5 });
      assert.deepEqual(inSrc.files, ["src/deep/util.ts"]);
      const limited = await run(root, { pattern: "*", target: "files", limit: 1 });
      assert.equal(limited.files.length, 1);
      assert.equal(limited.truncated, true);
      assert.ok(limited.total >= 5);
    });
  });
}

describe("search_files (JS walker only)", () => {
  afterEach(() => setRipgrepPath(undefined));

  test("falls back to the JS walker when rg fails before producing output", async () => {
    const root = await tempDir();
    await put(root, { "a.txt": "needle\n" });
    const fake = path.join(root, "fake-rg");
    await writeFile(fake, "#!/bin/sh\necho 'rg: unsupported' >&2\nexit 2\n");
    await chmod(fake, 0o755);
    setRipgrepPath(fake);
    const output = await run(root, { pattern: "needle" });
    assert.deepEqual(output.matches, [{ path: "a.txt", line: 1, text: "needle" }]);
  });

  test("a cancelled search returns partial results and says so", async () => {
    setRipgrepPath(null);
    const root = await tempDir();
    await put(root, { "a.txt": "needle\n" });
    const controller = new AbortController();
    controller.abort();
    const output = await run(root, { pattern: "needle" }, controller.signal);
    assert.deepEqual(output.matches, []);
    assert.equal(output.truncated, true);
    assert.match(output.note, /cancelled/);
  });
});

describe("search_files arguments and errors", () => {
  test("invalid regex and missing path are ToolErrors", async () => {
    setRipgrepPath(null);
    const root = await tempDir();
    await assert.rejects(run(root, { pattern: "(unclosed" }), (error: unknown) => {
      assert.ok(error instanceof ToolError);
      assert.match(error.message, /Invalid regular expression/);
      return true;
    });
    await assert.rejects(run(root, { pattern: "x", path: "nope" }), /Path not found: nope/);
  });

  test("schema: pattern required, target defaults to content, limit positive", () => {
    assert.equal(searchFilesTool.schema.safeParse({}).success, false);
    assert.equal(searchFilesTool.schema.safeParse({ pattern: "x", limit: 0 }).success, false);
    assert.equal(searchFilesTool.schema.safeParse({ pattern: "x", target: "dirs" }).success, false);
    assert.equal(searchFilesTool.schema.parse({ pattern: "x" }).target, "content");
  });

  test("titles name the pattern, folder and glob", () => {
    const cwd = path.resolve("/work");
    assert.equal(searchFilesTool.title(searchFilesTool.schema.parse({ pattern: "foo" }), cwd), 'grep "foo"');
    assert.equal(
      searchFilesTool.title(searchFilesTool.schema.parse({ pattern: "*.ts", target: "files", path: "src", file_glob: "x*" }), cwd),
      'find "*.ts" in src (x*)',
    );
  });

  test("clipLine keeps a window around the match", () => {
    const line = `${"a".repeat(1000)}MATCH${"b".repeat(1000)}`;
    const clipped = clipLine(line, 1000);
    assert.ok(clipped.length <= 302);
    assert.ok(clipped.includes("MATCH"));
    assert.ok(clipped.startsWith("…") && clipped.endsWith("…"));
    assert.equal(clipLine("short", 0), "short");
  });
});
