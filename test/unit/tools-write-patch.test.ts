import assert from "node:assert/strict";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, test } from "node:test";
import { occurrences } from "../../acp-server/tools/fuzzy-match";
import { hunk, noMatchHint, patchTool } from "../../acp-server/tools/patch";
import { ToolError } from "../../acp-server/tools/registry";
import { writeFileTool } from "../../acp-server/tools/write-file";
import { recordingContext, tempDir } from "../support/tool-context";

async function write(cwd: string, args: Record<string, unknown>, allow = true) {
  const ctx = recordingContext({ cwd, allow });
  const result = await writeFileTool.handler(writeFileTool.schema.parse(args), ctx);
  return { ctx, result, output: result.output as Record<string, any> };
}

async function patch(cwd: string, args: Record<string, unknown>, allow = true) {
  const ctx = recordingContext({ cwd, allow });
  const result = await patchTool.handler(patchTool.schema.parse(args), ctx);
  return { ctx, result, output: result.output as Record<string, any> };
}

const toolError = (pattern: RegExp) => (error: unknown) => {
  assert.ok(error instanceof ToolError, `expected a ToolError, got ${String(error)}`);
  assert.match(error.message, pattern);
  return true;
};

describe("write_file", () => {
  test("creates a new file with parent folders after asking with a diff", async () => {
    const cwd = await tempDir();
    const file = path.join(cwd, "deep", "dir", "new.ts");
    const { ctx, result, output } = await write(cwd, { path: "deep/dir/new.ts", content: "héllo\n" });
    assert.equal(await readFile(file, "utf8"), "héllo\n");
    assert.deepEqual(output, { path: "deep/dir/new.ts", bytes_written: 7, created: true });
    assert.deepEqual(result.content, [{ type: "diff", path: file, oldText: null, newText: "héllo\n" }]);
    assert.equal(ctx.asks.length, 1);
    assert.equal(ctx.asks[0].action, "edit");
    assert.equal(ctx.asks[0].title, "Write deep/dir/new.ts");
    assert.deepEqual(ctx.asks[0].paths, [file]);
    assert.deepEqual(ctx.asks[0].content, [{ type: "diff", path: file, oldText: null, newText: "héllo\n" }]);
  });

  test("overwrites an existing file and shows the old text in the diff", async () => {
    const cwd = await tempDir();
    await writeFile(path.join(cwd, "a.txt"), "old\n");
    const { result, output } = await write(cwd, { path: "a.txt", content: "new\n" });
    assert.equal(output.created, false);
    assert.equal(await readFile(path.join(cwd, "a.txt"), "utf8"), "new\n");
    assert.deepEqual(result.content, [{ type: "diff", path: path.join(cwd, "a.txt"), oldText: "old\n", newText: "new\n" }]);
  });

  test("a denied write changes nothing and reports an error result", async () => {
    const cwd = await tempDir();
    await writeFile(path.join(cwd, "a.txt"), "old\n");
    const { result } = await write(cwd, { path: "a.txt", content: "new\n" }, false);
    assert.equal(result.isError, true);
    assert.match((result.output as { error: string }).error, /denied/);
    assert.equal(await readFile(path.join(cwd, "a.txt"), "utf8"), "old\n");
  });

  test("refuses a directory path; schema requires path and content", async () => {
    const cwd = await tempDir();
    await mkdir(path.join(cwd, "src"));
    await assert.rejects(write(cwd, { path: "src", content: "x" }), toolError(/is a directory/));
    assert.equal(writeFileTool.schema.safeParse({ path: "a" }).success, false);
    assert.equal(writeFileTool.schema.safeParse({ content: "a" }).success, false);
    assert.equal(writeFileTool.schema.safeParse({ path: "a", content: "" }).success, true);
  });
});

describe("patch", () => {
  const source = "function a() {\n  return 1;\n}\n\nfunction b() {\n  return 1;\n}\n";

  test("replaces a unique string, asks with the full-file diff, reports the hunk", async () => {
    const cwd = await tempDir();
    const file = path.join(cwd, "x.ts");
    await writeFile(file, source);
    const { ctx, result, output } = await patch(cwd, { path: "x.ts", old_string: "function b() {\n  return 1;", new_string: "function b() {\n  return 2;" });
    const expected = source.replace("function b() {\n  return 1;", "function b() {\n  return 2;");
    assert.equal(await readFile(file, "utf8"), expected);
    assert.equal(output.replacements, 1);
    assert.equal(output.first_changed_line, 6);
    assert.equal(output.diff, "@@ line 6 @@\n-  return 1;\n+  return 2;");
    assert.deepEqual(result.content, [{ type: "diff", path: file, oldText: source, newText: expected }]);
    assert.deepEqual(result.locations, [{ path: file, line: 6 }]);
    assert.equal(ctx.asks[0].title, "Edit x.ts");
    assert.deepEqual(ctx.asks[0].content, result.content);
  });

  test("several matches need replace_all; with it every one is replaced", async () => {
    const cwd = await tempDir();
    const file = path.join(cwd, "x.ts");
    await writeFile(file, source);
    await assert.rejects(
      patch(cwd, { path: "x.ts", old_string: "return 1;", new_string: "return 3;" }),
      toolError(/occurs 2 times in x\.ts \(lines 2, 6\).*replace_all/),
    );
    assert.equal(await readFile(file, "utf8"), source);
    const { output } = await patch(cwd, { path: "x.ts", old_string: "return 1;", new_string: "return $&;", replace_all: true });
    assert.equal(output.replacements, 2);
    // "$&" must land literally (no String.replace pattern expansion).
    assert.equal(await readFile(file, "utf8"), source.split("return 1;").join("return $&;"));
  });

  test("not found explains why as well as it can", async () => {
    const cwd = await tempDir();
    await writeFile(path.join(cwd, "x.ts"), source);
    await assert.rejects(
      patch(cwd, { path: "x.ts", old_string: "function a() {\n  return 9;", new_string: "y" }),
      toolError(/not found in x\.ts\. The closest text is at lines 1-2 \(\d+% similar\):\n1\|function a\(\) \{\n2\| {2}return 1;\nOther close places: lines 5-6/),
    );
    await assert.rejects(patch(cwd, { path: "x.ts", old_string: "   2|  return 1;", new_string: "y" }), toolError(/line-number prefixes/));
    await assert.rejects(patch(cwd, { path: "x.ts", old_string: "zzzz qqqq", new_string: "y" }), toolError(/Nothing in the file resembles it/));
    await assert.rejects(patch(cwd, { path: "nope.ts", old_string: "a", new_string: "b" }), toolError(/File not found: nope\.ts.*write_file/));
  });

  test("rejects empty and identical strings without touching the file", async () => {
    const cwd = await tempDir();
    await writeFile(path.join(cwd, "x.ts"), source);
    await assert.rejects(patch(cwd, { path: "x.ts", old_string: "", new_string: "b" }), toolError(/old_string is empty/));
    await assert.rejects(patch(cwd, { path: "x.ts", old_string: "a", new_string: "a" }), toolError(/identical/));
    assert.equal(await readFile(path.join(cwd, "x.ts"), "utf8"), source);
  });

  test("matches CRLF files quoted with plain newlines and keeps CRLF", async () => {
    const cwd = await tempDir();
    const file = path.join(cwd, "w.txt");
    await writeFile(file, "one\r\ntwo\r\nthree\r\n");
    await patch(cwd, { path: "w.txt", old_string: "one\ntwo", new_string: "one\n2\ntwo" });
    assert.equal(await readFile(file, "utf8"), "one\r\n2\r\ntwo\r\nthree\r\n");
  });

  test("tolerates indentation drift: one loose match is applied re-indented, and says so", async () => {
    const cwd = await tempDir();
    const file = path.join(cwd, "x.ts");
    await writeFile(file, source);
    const { output } = await patch(cwd, { path: "x.ts", old_string: "function a() {\n    return 1;\n}", new_string: "function a() {\n    return 10;\n}" });
    assert.equal(await readFile(file, "utf8"), source.replace("function a() {\n  return 1;", "function a() {\n  return 10;"));
    assert.match(output.matched, /when indentation is ignored/);
    assert.equal(output.first_changed_line, 2);
  });

  test("an ambiguous loose match is refused and nothing is written", async () => {
    const cwd = await tempDir();
    const file = path.join(cwd, "x.ts");
    await writeFile(file, source);
    await assert.rejects(
      patch(cwd, { path: "x.ts", old_string: "    return 1;\n}", new_string: "    return 2;\n}" }),
      toolError(/occurs 2 times in x\.ts when indentation is ignored \(lines 2, 6\)/),
    );
    assert.equal(await readFile(file, "utf8"), source);
  });

  test("a denied patch leaves the file unchanged", async () => {
    const cwd = await tempDir();
    await writeFile(path.join(cwd, "x.ts"), source);
    const { result } = await patch(cwd, { path: "x.ts", old_string: "function a", new_string: "function z" }, false);
    assert.equal(result.isError, true);
    assert.match((result.output as { error: string }).error, /denied/);
    assert.equal(await readFile(path.join(cwd, "x.ts"), "utf8"), source);
  });

  test("helpers: occurrences, hunk for deletions, hint", () => {
    assert.deepEqual(occurrences("aaaa", "aa"), [0, 2]);
    const before = "a\nb\nc\n";
    const after = "a\nc\n";
    assert.deepEqual(hunk(before, after, 2, 2, 0), { diff: "@@ line 2 @@\n-b", line: 2 });
    assert.deepEqual(hunk("x\n", "x\ny\n", 2, 0, 2), { diff: "@@ line 2 @@\n+y", line: 2 });
    assert.match(noMatchHint("a\nb", "a b"), /line breaks/);
  });

  test("schema and titles", () => {
    assert.equal(patchTool.schema.safeParse({ path: "a", old_string: "x" }).success, false);
    assert.equal(patchTool.schema.safeParse({ path: "a", old_string: "x", new_string: "y", replace_all: "yes" }).success, false);
    const cwd = path.resolve("/work");
    assert.equal(patchTool.title({ path: "src/a.ts", old_string: "a", new_string: "b" }, cwd), "edit src/a.ts");
    assert.equal(writeFileTool.title({ path: "/work/b.ts", content: "" }, cwd), "write b.ts");
    assert.equal(patchTool.kind, "edit");
    assert.equal(writeFileTool.readOnly, false);
  });
});
