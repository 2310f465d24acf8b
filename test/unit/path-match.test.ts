// The one path matcher (acp-server/util/path-match.ts): git's ignore rules where they surprise
// people, globs for file_glob and search patterns, whole-path globs for saved edit rules.
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, test } from "node:test";
import { walkFiles } from "../../acp-server/tools/file-walker";
import { compileGlob, globMatches, IgnoreMatcher, wholePathMatches } from "../../acp-server/util/path-match";
import { tempDir } from "../support/tool-context";

const base = path.resolve("/repo");
const ignoredBy = (rules: string, file: string, isDir = false) => IgnoreMatcher.empty.with(base, rules).ignores(path.join(base, file), isDir);

describe("gitignore rules", () => {
  const cases: [rules: string, file: string, isDir: boolean, ignored: boolean][] = [
    // negation: the last matching rule wins, in either direction
    ["*.log\n!important.log\nimportant.log", "important.log", false, true],
    ["build/\n!build/", "build", true, false],
    ["\\!literal", "!literal", false, true],
    // anchored: a slash at the start or in the middle ties the rule to the file's folder
    ["/only-top", "only-top", false, true],
    ["/only-top", "a/only-top", false, false],
    ["docs/api", "docs/api", true, true],
    ["docs/api", "src/docs/api", true, false],
    ["api", "src/docs/api", true, true],
    // directory-only: a trailing slash never matches a file of that name
    ["cache/", "cache", false, false],
    ["cache/", "deep/cache", true, true],
    ["cache/", "cache/file", false, true],
    // ** at the start, in the middle and at the end
    ["**/tmp/*.txt", "a/b/tmp/x.txt", false, true],
    ["**/tmp/*.txt", "tmp/x.txt", false, true],
    ["a/**/z", "a/z", true, true],
    ["a/**/z", "b/a/z", true, false],
    ["out/**", "out", true, false],
    ["out/**", "out/deep/x", false, true],
    // escapes and trailing spaces
    ["\\#not-a-comment", "#not-a-comment", false, true],
    ["space\\ ", "space ", false, true],
  ];
  for (const [rules, file, isDir, ignored] of cases) {
    test(`${JSON.stringify(rules)} ${ignored ? "ignores" : "keeps"} ${file}${isDir ? "/" : ""}`, () => {
      assert.equal(ignoredBy(rules, file, isDir), ignored);
    });
  }

  test("a nested .gitignore re-includes what an outer one ignored, and its anchors are its own folder", () => {
    const matcher = IgnoreMatcher.empty.with(base, "*.gen.ts\n/vendor/\n").with(path.join(base, "pkg"), "!keep.gen.ts\n/vendor/\n");
    assert.equal(matcher.ignores(path.join(base, "pkg/x.gen.ts"), false), true);
    assert.equal(matcher.ignores(path.join(base, "pkg/keep.gen.ts"), false), false);
    assert.equal(matcher.ignores(path.join(base, "keep.gen.ts"), false), true, "the negation holds only under pkg/");
    assert.equal(matcher.ignores(path.join(base, "vendor"), true), true);
    assert.equal(matcher.ignores(path.join(base, "pkg/vendor"), true), true, "pkg's own /vendor/");
    assert.equal(matcher.ignores(path.join(base, "pkg/sub/vendor"), true), false);
    assert.equal(matcher.ignores(path.resolve("/elsewhere/x.gen.ts"), false), false, "outside every ignore file's folder");
  });

  test("the walker applies nested .gitignore files and never re-enters an ignored folder", async () => {
    const root = await tempDir();
    const files: Record<string, string> = {
      ".gitignore": "*.log\ndist/\n",
      "dist/.gitignore": "!*.log\n",
      "dist/x.log": "",
      "app/.gitignore": "!keep.log\n/local/\n",
      "app/keep.log": "",
      "app/drop.log": "",
      "app/local/a.ts": "",
      "app/deep/local/b.ts": "",
    };
    for (const [name, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(root, name)), { recursive: true });
      await writeFile(path.join(root, name), content);
    }
    const found: string[] = [];
    for await (const entry of walkFiles(root)) found.push(entry.relative);
    assert.deepEqual(found.sort(), [".gitignore", "app/.gitignore", "app/deep/local/b.ts", "app/keep.log"]);
  });
});

describe("globs", () => {
  test("** spans folders (none included), * and ? stay within one, dotfiles match", () => {
    const glob = compileGlob("src/**/*.spec.?s");
    assert.ok(globMatches(glob, "src/a.spec.ts"));
    assert.ok(globMatches(glob, "src/x/y/a.spec.js"));
    assert.ok(!globMatches(glob, "src/x/a.spec.tsx"));
    assert.ok(!globMatches(glob, "lib/src/a.spec.ts"), "a slash anchors the glob");
    assert.ok(globMatches(compileGlob("*.env"), "config/.env"), "no slash: the name only, dotfiles included");
    assert.ok(globMatches(compileGlob("/top.md"), "top.md"));
    assert.ok(!globMatches(compileGlob("/top.md"), "sub/top.md"));
    assert.ok(globMatches(compileGlob("**/fixtures/**"), "test/fixtures/a/b.json"));
  });

  test("braces only when asked, case folding only when asked", () => {
    assert.ok(globMatches(compileGlob("*.{md,txt}", { braces: true }), "notes/a.txt"));
    assert.ok(!globMatches(compileGlob("*.{md,txt}"), "a.txt"));
    assert.ok(globMatches(compileGlob("*.{md,txt}"), "a.{md,txt}"));
    assert.ok(!globMatches(compileGlob("Makefile"), "makefile"));
    assert.ok(globMatches(compileGlob("Makefile", { ignoreCase: true }), "makefile"));
  });

  test("edit rules match the whole path, relative to the workspace or absolute", () => {
    const cwd = path.resolve("/ws");
    assert.ok(wholePathMatches("src/**", path.join(cwd, "src/a/b.ts"), cwd));
    assert.ok(!wholePathMatches("src/**", path.join(cwd, "lib/src/b.ts"), cwd));
    assert.ok(wholePathMatches("a.txt", path.join(cwd, "a.txt"), cwd));
    assert.ok(!wholePathMatches("a.txt", path.join(cwd, "sub/a.txt"), cwd), "no name-only matching for edit rules");
    assert.ok(wholePathMatches("*.md", path.join(cwd, "README.md"), cwd));
    assert.ok(!wholePathMatches("*.md", path.join(cwd, "docs/README.md"), cwd));
    assert.ok(wholePathMatches(path.resolve("/etc/**"), path.resolve("/etc/hosts"), cwd));
    assert.ok(!wholePathMatches("src/**", path.resolve("/elsewhere/src/x"), cwd));
  });
});
