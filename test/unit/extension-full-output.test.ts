// "Show all" of a card whose whole output the agent spilled: the panel keeps the path from the
// card's `_meta["hermes/fullOutput"]`, and the host opens only a plain .log file under the OS
// temp folder (a link a sandboxed command planted there is not followed).
import type * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { isSpillFile } from "../../extension/output-spill";
import type { ChatAction } from "../../common/panel-state/actions";
import { initialState, reduce } from "../../common/panel-state/reducer";
import { chatStateSchema } from "../../common/panel-state/schemas";
import { makeTempDirSync } from "../support/temp-dirs";

test("the card keeps the agent's spill path from the finished update's _meta", () => {
  const actions: ChatAction[] = [
    { type: "sessionOpened", sessionId: "s1", loading: false },
    { type: "update", update: { sessionUpdate: "tool_call", toolCallId: "big", title: "$ seq 1 200000", kind: "execute", status: "in_progress" } },
    { type: "update", update: { sessionUpdate: "tool_call_update", toolCallId: "big", status: "completed", _meta: { "hermes/fullOutput": { path: "/tmp/x/big.log", bytes: 1288895 } } } as acp.SessionUpdate },
  ];
  const state = actions.reduce(reduce, initialState());
  const item = state.items[0];
  assert.ok(item?.kind === "tool");
  assert.equal(item.fullOutput, "/tmp/x/big.log");
  assert.ok(chatStateSchema.safeParse(state).success);
});

test("only a plain .log file under the temp folder is opened", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "hermes-spill-check-"));
  const log = path.join(dir, "call-1.log");
  writeFileSync(log, "output\n");
  assert.equal(await isSpillFile(log), true);
  const outside = path.join(makeTempDirSync("hermes-elsewhere-"), "x.log");
  writeFileSync(outside, "x");
  assert.equal(await isSpillFile(outside, dir), false, "outside the given root");
  const secret = path.join(dir, "id_rsa");
  writeFileSync(secret, "key");
  const link = path.join(dir, "planted.log");
  symlinkSync(secret, link);
  assert.equal(await isSpillFile(link), false, "a link is not followed");
  assert.equal(await isSpillFile(secret), false, "not a .log");
  assert.equal(await isSpillFile("relative.log"), false);
  assert.equal(await isSpillFile(path.join(dir, "missing.log")), false);
});
