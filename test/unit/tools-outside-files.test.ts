// File tools on paths outside the workspace (or on credentials) ask before they touch the
// file, and a refused call tells the model nothing about the file: not its content, not
// whether old_string is in it, not even whether it exists.
import assert from "node:assert/strict";
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, test } from "node:test";
import type { FileAccess } from "../../acp-server/tools/context";
import { patchTool } from "../../acp-server/tools/patch";
import { readFileTool } from "../../acp-server/tools/read-file";
import { ToolError } from "../../acp-server/tools/registry";
import { writeFileTool } from "../../acp-server/tools/write-file";
import { recordingContext, tempDir } from "../support/tool-context";

const SECRET = "ssh-key-material-7f3a9c1e";

/** A context whose file access records every read, so "asked before reading" is checked, not assumed. */
function watchedContext(cwd: string, allow: boolean) {
  const ctx = recordingContext({ cwd, allow });
  const reads: string[] = [];
  const inner = ctx.files;
  const files: FileAccess = {
    viaEditor: inner.viaEditor,
    readText: async (file) => {
      reads.push(file);
      return inner.readText(file);
    },
    writeText: (file, content) => inner.writeText(file, content),
  };
  ctx.files = files;
  return { ctx, reads };
}

async function outcome(run: () => Promise<{ output: unknown; isError?: boolean }>): Promise<string> {
  try {
    return JSON.stringify(await run());
  } catch (error) {
    assert.ok(error instanceof ToolError, String(error));
    return `ToolError: ${error.message}`;
  }
}

async function layout() {
  const root = await tempDir();
  const cwd = path.join(root, "project");
  const outside = path.join(root, "home", ".ssh");
  await mkdir(cwd, { recursive: true });
  await mkdir(outside, { recursive: true });
  const secretFile = path.join(outside, "notes.txt");
  await writeFile(secretFile, `first line\n${SECRET}\nlast line\n`);
  return { root, cwd, secretFile, missing: path.join(outside, "missing.txt") };
}

describe("file tools outside the workspace", () => {
  test("a refused patch reads nothing and every guess gets the same answer", async () => {
    const { cwd, secretFile, missing } = await layout();
    const guesses = [
      { path: secretFile, old_string: "ssh-key-material", new_string: "x" }, // a true prefix
      { path: secretFile, old_string: "ssh-key-materiaZ", new_string: "x" }, // a wrong one
      { path: secretFile, old_string: "first line", new_string: "x" }, // a whole line
      { path: secretFile, old_string: "line", new_string: "x" }, // occurs twice
      { path: secretFile, old_string: "first  line", new_string: "x" }, // whitespace-only difference
    ];
    const answers = new Set<string>();
    for (const guess of guesses) {
      const { ctx, reads } = watchedContext(cwd, false);
      const text = await outcome(() => patchTool.handler(patchTool.schema.parse(guess), ctx));
      assert.deepEqual(reads, [], "the file was read before the user answered");
      assert.equal(ctx.asks.length, 1);
      assert.equal(ctx.asks[0].action, "edit");
      assert.deepEqual(ctx.asks[0].paths, [secretFile]);
      assert.ok(!text.includes(SECRET) && !/line \d|times|whitespace|first line appears/.test(text), text);
      answers.add(text);
    }
    assert.equal(answers.size, 1, `different answers leak the content: ${[...answers].join(" | ")}`);
    // A file that does not exist gets the same refusal (no "not found" oracle).
    const { ctx } = watchedContext(cwd, false);
    const absent = await outcome(() => patchTool.handler(patchTool.schema.parse({ path: missing, old_string: "a", new_string: "b" }), ctx));
    assert.equal(absent, [...answers][0].replace(secretFile, missing));
    assert.equal(await readFile(secretFile, "utf8"), `first line\n${SECRET}\nlast line\n`);
  });

  test("an approved outside patch asks once, with the replacement, then applies it", async () => {
    const { cwd, secretFile } = await layout();
    const { ctx } = watchedContext(cwd, true);
    const result = await patchTool.handler(patchTool.schema.parse({ path: secretFile, old_string: "last line", new_string: "final line" }), ctx);
    assert.equal(result.isError, undefined);
    assert.equal(ctx.asks.length, 1);
    assert.deepEqual(ctx.asks[0].content, [{ type: "diff", path: secretFile, oldText: "last line", newText: "final line" }]);
    assert.match(await readFile(secretFile, "utf8"), /final line/);
  });

  test("a symlink inside the workspace that points outside counts as outside", async () => {
    const { cwd, secretFile } = await layout();
    await symlink(secretFile, path.join(cwd, "innocent.txt"));
    const { ctx, reads } = watchedContext(cwd, false);
    const text = await outcome(() => patchTool.handler(patchTool.schema.parse({ path: "innocent.txt", old_string: SECRET, new_string: "x" }), ctx));
    assert.deepEqual(reads, []);
    assert.equal(ctx.asks.length, 1);
    assert.ok(!text.includes(SECRET));
  });

  test("write_file outside asks before looking at the file; refused, it changes and reveals nothing", async () => {
    const { cwd, secretFile, missing } = await layout();
    const answers = new Set<string>();
    for (const target of [secretFile, missing, path.dirname(secretFile)]) {
      const { ctx, reads } = watchedContext(cwd, false);
      const text = await outcome(() => writeFileTool.handler(writeFileTool.schema.parse({ path: target, content: "overwritten\n" }), ctx));
      assert.deepEqual(reads, []);
      assert.equal(ctx.asks.length, 1);
      assert.ok(!text.includes(SECRET) && !/directory|created/.test(text), text);
      answers.add(text.replace(target, "<target>"));
    }
    assert.equal(answers.size, 1);
    assert.equal(await readFile(secretFile, "utf8"), `first line\n${SECRET}\nlast line\n`);
  });

  test("read_file outside asks first and a refusal says nothing about the file", async () => {
    const { cwd, secretFile, missing } = await layout();
    const answers = new Set<string>();
    for (const target of [secretFile, missing]) {
      const { ctx, reads } = watchedContext(cwd, false);
      const text = await outcome(() => readFileTool.handler(readFileTool.schema.parse({ path: target }), ctx));
      assert.deepEqual(reads, []);
      assert.equal(ctx.asks.length, 1);
      assert.equal(ctx.asks[0].action, "read");
      assert.ok(!text.includes(SECRET));
      answers.add(text.replace(target, "<target>"));
    }
    assert.equal(answers.size, 1);
  });

  test("inside the workspace, patch still reads first and explains a miss", async () => {
    const { cwd } = await layout();
    await writeFile(path.join(cwd, "a.ts"), "alpha\nbeta\n");
    const { ctx } = watchedContext(cwd, true);
    const text = await outcome(() => patchTool.handler(patchTool.schema.parse({ path: "a.ts", old_string: "alpha  beta", new_string: "x" }), ctx));
    assert.match(text, /not found/);
    assert.equal(ctx.asks.length, 0);
  });
});
