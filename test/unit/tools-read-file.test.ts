import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, test } from "node:test";
import { FileNotFoundError, type FileAccess } from "../../acp-server/tools/context";
import { MAX_LINE_CHARS, MAX_READ_CHARS, readFileTool, similarNames } from "../../acp-server/tools/read-file";
import { ToolError } from "../../acp-server/tools/registry";
import { recordingContext, tempDir } from "../support/tool-context";

async function read(cwd: string, args: Record<string, unknown>, files?: FileAccess) {
  const ctx = recordingContext({ cwd });
  if (files) ctx.files = files;
  const result = await readFileTool.handler(readFileTool.schema.parse(args), ctx);
  return { result, output: result.output as Record<string, any> };
}

const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join("\n") + "\n";

/** An editor-backed FileAccess holding buffers that are not on disk. */
function editorFiles(buffers: Record<string, string>): FileAccess {
  return {
    viaEditor: true,
    readText: async (file) => {
      if (!(file in buffers)) throw new FileNotFoundError(file);
      return buffers[file];
    },
    writeText: async () => {
      throw new Error("read-only");
    },
  };
}

describe("read_file", () => {
  test("numbers lines with a right-aligned column and reports totals", async () => {
    const cwd = await tempDir();
    await writeFile(path.join(cwd, "a.txt"), numbered(12));
    const { result, output } = await read(cwd, { path: "a.txt" });
    const lines = output.content.split("\n");
    assert.equal(lines.length, 12);
    assert.equal(lines[0], "   1|line 1");
    assert.equal(lines[11], "  12|line 12");
    assert.equal(output.path, "a.txt");
    assert.equal(output.total_lines, 12);
    assert.equal(output.lines_returned, 12);
    assert.equal(output.offset, 1);
    assert.equal(output.truncated, undefined);
    assert.deepEqual(result.locations, [{ path: path.join(cwd, "a.txt"), line: 1 }]);
    // The editor's card shows the file's text itself, not the JSON the model reads.
    assert.deepEqual(result.content, [{ type: "text", text: numbered(12).trimEnd() }]);
  });

  test("pages with offset and limit and says how to continue", async () => {
    const cwd = await tempDir();
    await writeFile(path.join(cwd, "a.txt"), numbered(30));
    const { output } = await read(cwd, { path: "a.txt", offset: 10, limit: 5 });
    assert.equal(output.content, "  10|line 10\n  11|line 11\n  12|line 12\n  13|line 13\n  14|line 14");
    assert.equal(output.lines_returned, 5);
    assert.match(output.truncated, /lines 10-14 of 30/);
    assert.match(output.truncated, /offset=15/);
    const page = await read(cwd, { path: "a.txt", offset: 10, limit: 2 });
    assert.deepEqual(page.result.content, [{ type: "text", text: "line 10\nline 11\n… lines 12-30 not read" }]);
    const tail = await read(cwd, { path: "a.txt", offset: 28 });
    assert.equal(tail.output.lines_returned, 3);
    assert.equal(tail.output.truncated, undefined);
  });

  test("default limit is 2000 lines and the number column widens", async () => {
    const cwd = await tempDir();
    await writeFile(path.join(cwd, "big.txt"), numbered(12000));
    const { output } = await read(cwd, { path: "big.txt", offset: 10000 });
    assert.equal(output.lines_returned, 2000);
    assert.ok(output.content.startsWith("10000|line 10000\n"));
    assert.ok(output.content.endsWith("11999|line 11999"));
    assert.match(output.truncated, /offset=12000/);
  });

  test("cuts long lines and caps total characters", async () => {
    const cwd = await tempDir();
    const long = "x".repeat(MAX_LINE_CHARS + 500);
    await writeFile(path.join(cwd, "long.txt"), `${long}\nshort\n`);
    const { output } = await read(cwd, { path: "long.txt" });
    const first = output.content.split("\n")[0];
    assert.ok(first.includes("[line cut: 500 more characters]"));
    assert.ok(first.length < MAX_LINE_CHARS + 60);
    assert.ok(output.content.endsWith("   2|short"));

    await writeFile(path.join(cwd, "wide.txt"), Array.from({ length: 200 }, () => "y".repeat(1500)).join("\n"));
    const wide = await read(cwd, { path: "wide.txt" });
    assert.ok(wide.output.content.length <= MAX_READ_CHARS);
    assert.ok(wide.output.lines_returned < 200);
    assert.match(wide.output.truncated, new RegExp(`offset=${wide.output.lines_returned + 1}`));
  });

  test("strips CR of CRLF files and handles empty files", async () => {
    const cwd = await tempDir();
    await writeFile(path.join(cwd, "crlf.txt"), "one\r\ntwo\r\n");
    assert.equal((await read(cwd, { path: "crlf.txt" })).output.content, "   1|one\n   2|two");
    await writeFile(path.join(cwd, "empty.txt"), "");
    const empty = await read(cwd, { path: "empty.txt" });
    assert.equal(empty.output.total_lines, 0);
    assert.equal(empty.output.content, "");
    assert.match(empty.output.note, /empty/);
  });

  test("refuses binary files, directories and offsets past the end", async () => {
    const cwd = await tempDir();
    await writeFile(path.join(cwd, "blob.bin"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x0d]));
    await assert.rejects(read(cwd, { path: "blob.bin" }), (error: unknown) => error instanceof ToolError && /binary file/.test(error.message));
    await mkdir(path.join(cwd, "src"));
    await assert.rejects(read(cwd, { path: "src" }), (error: unknown) => error instanceof ToolError && /directory.*search_files/.test(error.message));
    await writeFile(path.join(cwd, "a.txt"), numbered(3));
    await assert.rejects(read(cwd, { path: "a.txt", offset: 4 }), /offset 4 is past the end of a.txt, which has 3 lines/);
  });

  test("not found suggests similar names in the same folder", async () => {
    const cwd = await tempDir();
    await mkdir(path.join(cwd, "src"));
    await writeFile(path.join(cwd, "src", "config.ts"), "");
    await writeFile(path.join(cwd, "src", "unrelated.md"), "");
    await assert.rejects(read(cwd, { path: "src/confg.ts" }), (error: unknown) => {
      assert.ok(error instanceof ToolError);
      assert.match(error.message, /File not found: src\/confg\.ts\. Did you mean: src\/config\.ts\?/);
      assert.doesNotMatch(error.message, /unrelated/);
      return true;
    });
    await assert.rejects(read(cwd, { path: "nowhere/x.ts" }), /does not exist either/);
  });

  test("reads editor buffers through ctx.files, which is the truth for editor-only files", async () => {
    const cwd = await tempDir();
    await writeFile(path.join(cwd, "a.ts"), "on disk\n");
    const files = editorFiles({ [path.join(cwd, "a.ts")]: "unsaved edit\n", [path.join(cwd, "new.ts")]: "only in editor\n" });
    assert.equal((await read(cwd, { path: "a.ts" }, files)).output.content, "   1|unsaved edit");
    assert.equal((await read(cwd, { path: "new.ts" }, files)).output.content, "   1|only in editor");
    const binary = editorFiles({ [path.join(cwd, "b.bin")]: "ab\0cd" });
    await assert.rejects(read(cwd, { path: "b.bin" }, binary), /binary file/);
  });

  test("schema, title and locations", () => {
    assert.equal(readFileTool.schema.safeParse({}).success, false);
    assert.equal(readFileTool.schema.safeParse({ path: "a", offset: 0 }).success, false);
    assert.equal(readFileTool.schema.safeParse({ path: "a", limit: 1.5 }).success, false);
    const cwd = path.resolve("/work");
    assert.equal(readFileTool.title({ path: "src/a.ts" }, cwd), "read src/a.ts");
    assert.equal(readFileTool.title({ path: "src/a.ts", offset: 10, limit: 5 }, cwd), "read src/a.ts (lines 10-14)");
    assert.equal(readFileTool.title({ path: "/etc/hosts", offset: 3 }, cwd), "read /etc/hosts (from line 3)");
    assert.deepEqual(readFileTool.locations?.({ path: "a.ts", offset: 7 }, cwd), [{ path: path.join(cwd, "a.ts"), line: 7 }]);
    assert.equal(readFileTool.kind, "read");
    assert.equal(readFileTool.readOnly, true);
  });

  test("similarNames ranks typos and extension slips", () => {
    assert.deepEqual(similarNames("index.js", ["index.ts", "main.ts", "Index.js"]), ["Index.js", "index.ts"]);
    assert.deepEqual(similarNames("zzz.txt", ["alpha.md"]), []);
  });
});

describe("read_file of an image", () => {
  // A 1×1 PNG: real image bytes, which the text path refuses as binary.
  const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==", "base64");

  test("returns the image for the model and the card, not a binary refusal", async () => {
    const cwd = await tempDir();
    await writeFile(path.join(cwd, "logo.png"), PNG);
    const ctx = recordingContext({ cwd });
    const result = await readFileTool.handler(readFileTool.schema.parse({ path: "logo.png" }), ctx);
    assert.deepEqual(result.images, [{ mimeType: "image/png", data: PNG.toString("base64") }]);
    assert.equal(result.content?.[0]?.type, "image");
    assert.match(String(result.output), /Image logo\.png \(image\/png, 1 KB\), attached as an image/);
  });

  /** A PNG header (signature + IHDR) claiming `width`×`height`: the size check reads no more. */
  function pngHeader(width: number, height: number): Buffer {
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(width, 0);
    ihdr.writeUInt32BE(height, 4);
    return Buffer.concat([PNG.subarray(0, 8), Buffer.from([0, 0, 0, 13]), Buffer.from("IHDR"), ihdr, PNG.subarray(29)]);
  }

  test("refuses an image over 12000 px a side (more than a copy is scaled from), and a file that is not the image it is named", async () => {
    const cwd = await tempDir();
    await writeFile(path.join(cwd, "poster.png"), pngHeader(13000, 400));
    await writeFile(path.join(cwd, "fake.jpg"), "not a jpeg at all");
    const ctx = recordingContext({ cwd });
    await assert.rejects(
      readFileTool.handler(readFileTool.schema.parse({ path: "poster.png" }), ctx),
      (error: unknown) => error instanceof ToolError && /poster\.png is 13000×400 px, over the 12000 px per side/.test(error.message),
    );
    await assert.rejects(
      readFileTool.handler(readFileTool.schema.parse({ path: "fake.jpg" }), ctx),
      (error: unknown) => error instanceof ToolError && /fake\.jpg is not a readable image\/jpeg image/.test(error.message),
    );
    // Over Anthropic's 8000 px: read whole, as the request will carry a scaled copy (agent/image-fit.ts).
    await writeFile(path.join(cwd, "wide.png"), pngHeader(12000, 10));
    const wide = await readFileTool.handler(readFileTool.schema.parse({ path: "wide.png" }), ctx);
    assert.equal(wide.images?.length, 1, "12000 px is still accepted");
  });
});
