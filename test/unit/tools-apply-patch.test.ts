import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { before, describe, test } from "node:test";
import { applyPatchTool } from "../../acp-server/tools/apply-patch";
import { recoverFileTransactions, transactionsDir } from "../../acp-server/tools/file-transaction";
import { parsePatch } from "../../acp-server/tools/patch-format";
import { ToolError } from "../../acp-server/tools/registry";
import { recordingContext, tempDir } from "../support/tool-context";

let home: string;
before(async () => {
  home = await tempDir("hermes-home-");
  process.env.HERMES_HOME = home;
});

async function apply(cwd: string, patch: string, allow = true) {
  const ctx = recordingContext({ cwd, allow });
  const result = await applyPatchTool.handler(applyPatchTool.schema.parse({ patch }), ctx);
  return { ctx, result, output: result.output as Record<string, any> };
}

const toolError = (pattern: RegExp) => (error: unknown) => {
  assert.ok(error instanceof ToolError, `expected a ToolError, got ${String(error)}`);
  assert.match(error.message, pattern);
  return true;
};

async function project(files: Record<string, string>): Promise<string> {
  const cwd = await tempDir();
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(cwd, name)), { recursive: true });
    await writeFile(path.join(cwd, name), text);
  }
  return cwd;
}

const read = (cwd: string, name: string) => readFile(path.join(cwd, name), "utf8");

describe("apply_patch: the apply_patch envelope", () => {
  test("updates, adds, deletes and moves files after ONE permission request showing every diff", async () => {
    const cwd = await project({
      "src/a.ts": "export function a() {\n  return 1;\n}\n",
      "src/b.ts": "import { a } from './a';\n\nconsole.log(a());\n",
      "old.txt": "bye\n",
      "src/move-me.ts": "export const x = 1;\n",
    });
    const patch = [
      "*** Begin Patch",
      "*** Update File: src/a.ts",
      "@@ export function a() {",
      "-  return 1;",
      "+  return 2;",
      "*** Update File: src/b.ts",
      "@@",
      " import { a } from './a';",
      "+import { c } from './c';",
      "",
      "-console.log(a());",
      "+console.log(a(), c);",
      "*** Add File: src/c.ts",
      "+export const c = 3;",
      "*** Delete File: old.txt",
      "*** Update File: src/move-me.ts",
      "*** Move to: src/moved.ts",
      "-export const x = 1;",
      "+export const x = 2;",
      "*** End Patch",
    ].join("\n");
    const { ctx, result, output } = await apply(cwd, patch);
    assert.equal(await read(cwd, "src/a.ts"), "export function a() {\n  return 2;\n}\n");
    assert.equal(await read(cwd, "src/b.ts"), "import { a } from './a';\nimport { c } from './c';\n\nconsole.log(a(), c);\n");
    assert.equal(await read(cwd, "src/c.ts"), "export const c = 3;\n");
    assert.equal(await read(cwd, "src/moved.ts"), "export const x = 2;\n");
    assert.equal(existsSync(path.join(cwd, "old.txt")), false);
    assert.equal(existsSync(path.join(cwd, "src/move-me.ts")), false);

    assert.equal(ctx.asks.length, 1, "one permission request for the whole patch");
    const [ask] = ctx.asks;
    assert.equal(ask?.action, "delete", "a patch that deletes files asks as a deletion");
    assert.equal(ask?.title, "Patch 6 files");
    assert.equal(ask?.content?.length, 5);
    assert.deepEqual(
      ask?.content?.map((entry) => (entry.type === "diff" ? path.relative(cwd, entry.path) : entry.type)),
      ["src/a.ts", "src/b.ts", "src/c.ts", "old.txt", "src/moved.ts"],
    );
    assert.deepEqual(result.content, ask?.content);
    assert.deepEqual(
      output.files.map((file: { path: string; change: string }) => `${file.change} ${file.path}`),
      ["updated src/a.ts", "updated src/b.ts", "added src/c.ts", "deleted old.txt", "moved src/moved.ts"],
    );
    assert.deepEqual(readdirSync(transactionsDir(home)), [], "the transaction manifest is gone once committed");
  });

  test("a hunk with indentation drift applies re-indented, and the output says it matched loosely", async () => {
    const cwd = await project({ "m.py": "class A:\n    def run(self):\n        return 1\n" });
    const patch = "*** Begin Patch\n*** Update File: m.py\n@@\n def run(self):\n-    return 1\n+    value = 2\n+    return value\n*** End Patch\n";
    const { output } = await apply(cwd, patch);
    assert.equal(await read(cwd, "m.py"), "class A:\n    def run(self):\n        value = 2\n        return value\n");
    assert.match(output.files[0].matched, /indentation is ignored/);
  });

  test("one bad file: nothing is written, no permission is asked, the error names the file and the closest text", async () => {
    const cwd = await project({ "a.txt": "alpha\nbeta\n", "b.txt": "gamma\ndelta\n" });
    const patch = "*** Begin Patch\n*** Update File: a.txt\n-alpha\n+ALPHA\n*** Update File: b.txt\n-gamma\n-delat\n+GAMMA\n*** Add File: c.txt\n+new\n*** End Patch";
    const ctx = recordingContext({ cwd });
    await assert.rejects(
      applyPatchTool.handler({ patch }, ctx),
      toolError(/the hunk for b\.txt: its context and "-" lines were not found\. The closest text is at lines 1-2 \(\d+% similar\):\n1\|gamma\n2\|delta/),
    );
    assert.equal(ctx.asks.length, 0);
    assert.equal(await read(cwd, "a.txt"), "alpha\nbeta\n");
    assert.equal(await read(cwd, "b.txt"), "gamma\ndelta\n");
    assert.equal(existsSync(path.join(cwd, "c.txt")), false);
  });

  test("a file that fails while being written rolls every file back (nothing written)", async () => {
    const cwd = await project({ "a.txt": "alpha\n" });
    // A name that fits the file system but not with the transaction's temp suffix: found only
    // when the transaction stages it, after a.txt's new content was already staged.
    const long = `${"n".repeat(240)}.txt`;
    const patch = `*** Begin Patch\n*** Update File: a.txt\n-alpha\n+ALPHA\n*** Add File: ${long}\n+new\n*** End Patch`;
    const { ctx } = { ctx: recordingContext({ cwd }) };
    await assert.rejects(applyPatchTool.handler({ patch }, ctx), toolError(/could not be written .*no file was changed/));
    assert.equal(ctx.asks.length, 1);
    assert.equal(await read(cwd, "a.txt"), "alpha\n");
    assert.deepEqual(readdirSync(cwd), ["a.txt"], "no temp or backup files are left");
  });

  test("a denied patch changes nothing; ambiguous hunks and existing Add targets are refused", async () => {
    const cwd = await project({ "a.txt": "x\ny\nx\ny\n", "b.txt": "b\n" });
    const { result } = await apply(cwd, "*** Begin Patch\n*** Update File: b.txt\n-b\n+B\n*** End Patch", false);
    assert.equal(result.isError, true);
    assert.equal(await read(cwd, "b.txt"), "b\n");
    await assert.rejects(apply(cwd, "*** Begin Patch\n*** Update File: a.txt\n x\n-y\n+Y\n*** End Patch"), toolError(/matches 2 places \(lines 1, 3\)/));
    await assert.rejects(apply(cwd, "*** Begin Patch\n*** Add File: b.txt\n+again\n*** End Patch"), toolError(/already exists/));
    await assert.rejects(apply(cwd, "*** Begin Patch\n*** Update File: nope.txt\n-a\n+b\n*** End Patch"), toolError(/does not exist; use "\*\*\* Add File:"/));
    assert.equal(await read(cwd, "a.txt"), "x\ny\nx\ny\n");
  });

  test("an @@ anchor picks among equal matches", async () => {
    const cwd = await project({ "a.txt": "one:\n  x\ntwo:\n  x\n" });
    await apply(cwd, "*** Begin Patch\n*** Update File: a.txt\n@@ two:\n-  x\n+  y\n*** End Patch");
    assert.equal(await read(cwd, "a.txt"), "one:\n  x\ntwo:\n  y\n");
  });

  test("a cut-off patch is refused before anything happens", () => {
    assert.throws(() => parsePatch("*** Begin Patch\n*** Update File: a\n-x\n+y\n"), toolError(/no "\*\*\* End Patch"/));
    assert.throws(() => parsePatch("just some text"), toolError(/no format/));
    assert.throws(() => parsePatch("*** Begin Patch\n*** Add File: a\nno plus\n*** End Patch"), toolError(/line 3: every line of an added file/));
  });
});

describe("apply_patch: unified diffs", () => {
  test("git diff with several files and hunks; line numbers choose among equal matches", async () => {
    const cwd = await project({ "src/x.c": "int a = 0;\nint b = 0;\nint a = 0;\nint b = 0;\n", "README": "hello\n", "gone.txt": "bye\n" });
    const diff = [
      "diff --git a/src/x.c b/src/x.c",
      "index 111..222 100644",
      "--- a/src/x.c",
      "+++ b/src/x.c",
      "@@ -3,2 +3,2 @@",
      " int a = 0;",
      "-int b = 0;",
      "+int b = 1;",
      "diff --git a/README b/README",
      "--- a/README",
      "+++ b/README",
      "@@ -1 +1,2 @@",
      " hello",
      "+world",
      "\\ No newline at end of file",
      "--- a/gone.txt",
      "+++ /dev/null",
      "@@ -1 +0,0 @@",
      "-bye",
      "--- /dev/null",
      "+++ b/new/file.txt",
      "@@ -0,0 +1,2 @@",
      "+first",
      "+second",
    ].join("\n");
    const { ctx } = await apply(cwd, diff);
    assert.equal(await read(cwd, "src/x.c"), "int a = 0;\nint b = 0;\nint a = 0;\nint b = 1;\n");
    assert.equal(await read(cwd, "README"), "hello\nworld");
    assert.equal(existsSync(path.join(cwd, "gone.txt")), false);
    assert.equal(await read(cwd, "new/file.txt"), "first\nsecond\n");
    assert.equal(ctx.asks.length, 1);
    assert.equal(ctx.asks[0]?.content?.length, 4);
  });

  test("a CRLF file patched with an LF diff keeps CRLF", async () => {
    const cwd = await project({ "w.txt": "one\r\ntwo\r\nthree\r\n" });
    await apply(cwd, "--- w.txt\n+++ w.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n");
    assert.equal(await read(cwd, "w.txt"), "one\r\nTWO\r\nthree\r\n");
  });
});

describe("file transactions survive a crash", () => {
  test("killed between two renames: recovery puts every file back", async () => {
    const cwd = await project({ "a.txt": "A0\n", "b.txt": "B0\n" });
    // A real process commits two files and is SIGKILLed right after its first rename.
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "-e",
        `
        const fs = require("node:fs");
        const { syncBuiltinESMExports } = require("node:module");
        const original = fs.promises.rename;
        let renames = 0;
        fs.promises.rename = async (from, to) => {
          await original(from, to);
          if (!String(from).endsWith(".tmp")) return;
          if (++renames === 1) process.kill(process.pid, "SIGKILL");
        };
        syncBuiltinESMExports();
        import(${JSON.stringify(path.resolve("acp-server/tools/file-transaction.ts"))}).then(({ commitFileChanges }) =>
          commitFileChanges([{ path: ${JSON.stringify(path.join(cwd, "a.txt"))}, content: "A1\\n" }, { path: ${JSON.stringify(path.join(cwd, "b.txt"))}, content: "B1\\n" }]));
        `,
      ],
      { env: { ...process.env, HERMES_HOME: home }, stdio: ["ignore", "ignore", "inherit"] },
    );
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, killed) => resolve(killed)));
    assert.equal(signal, "SIGKILL");
    assert.equal(await read(cwd, "a.txt"), "A1\n", "the crash left the first file changed");
    assert.equal(await read(cwd, "b.txt"), "B0\n");
    assert.equal(readdirSync(transactionsDir(home)).length, 1, "and its manifest behind");

    const restored = await recoverFileTransactions(home);
    assert.deepEqual(restored.map((file) => path.basename(file)).sort(), ["a.txt", "b.txt"]);
    assert.equal(await read(cwd, "a.txt"), "A0\n");
    assert.equal(await read(cwd, "b.txt"), "B0\n");
    assert.deepEqual(readdirSync(cwd).sort(), ["a.txt", "b.txt"], "no temp or backup files are left");
    assert.deepEqual(readdirSync(transactionsDir(home)), []);
  });
});
