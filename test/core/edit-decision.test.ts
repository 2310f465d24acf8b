// One decision per edit, over the real protocol: an edit's permission request carries its diff
// for every client, and `_meta["hermes/partialAccept"]` only when the edit's write goes through
// the client's fs/write_text_file (so a panel can accept part of it). The client here decides as
// Hermes's panel does (its own hunk code: extension/diff-hunks.ts, edit-review.ts): one hunk of
// two accepted; the model then reads which change was written and which was not.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { applyHunks, computeHunks } from "../../extension/diff-hunks";
import { reviewMeta } from "../../extension/edit-review";
import { useScriptedModel } from "../support/scripted-model";
import { makeTempDir, scriptedConfig, sessionUpdates, startAgent } from "../support/in-process-agent";

const scripted = useScriptedModel();
const before = Array.from({ length: 12 }, (_, i) => `line ${i + 1}\n`).join("");
const proposed = before.replace("line 1\n", "LINE ONE\n").replace("line 12\n", "LINE TWELVE\n");

test("an edit asks once with its diff and the partial-accept mark; the model learns which hunk landed", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const file = path.join(project, "a.txt");
  await writeFile(file, before);
  const first = model.requests.length;
  model.enqueue({ toolCalls: [{ id: "w", name: "write_file", arguments: { path: "a.txt", content: proposed } }] }, { text: "ok" });
  const hermes = await startAgent({
    config: scriptedConfig(model.url),
    serveFs: true,
    permission: "allow",
    // The panel: the first hunk accepted, the second rejected, only the first written.
    writeAnswer: (params) => {
      const hunks = computeHunks(before, params.content);
      const decisions = hunks.map((_, i) => (i === 0 ? ("accepted" as const) : ("rejected" as const)));
      writeFileSync(params.path, applyHunks(before, params.content, hunks, [0]));
      return { _meta: { "hermes/review": reviewMeta(hunks, decisions) } };
    },
  });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    assert.equal((await hermes.prompt(sessionId, "capitalise")).stopReason, "end_turn");

    assert.equal(hermes.permissionRequests.length, 1, "asked once");
    const asked = hermes.permissionRequests[0]!;
    assert.equal(asked._meta?.["hermes/partialAccept"], true);
    const diff = asked.toolCall.content?.find((c) => c.type === "diff");
    assert.ok(diff && diff.type === "diff" && diff.oldText === before && diff.newText === proposed, "a standard diff for any client");

    assert.equal(await readFile(file, "utf8"), before.replace("line 1\n", "LINE ONE\n"));
    const result = model.requests[first + 1]!.body.messages.find((m: { role: string; tool_call_id?: string }) => m.role === "tool" && m.tool_call_id === "w");
    assert.match(result.content, /accepted 1 of 2 hunks/);
    assert.match(result.content, /Written: the change at line 1 \(-\\"line 1\\" \+\\"LINE ONE\\"\)/);
    assert.match(result.content, /Not written \(rejected by the user\): the change at line 12 \(-\\"line 12\\" \+\\"LINE TWELVE\\"\)/);

    // The card shows what landed.
    const done = sessionUpdates(hermes, sessionId).find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "w" && u.status === "completed");
    const landed = done && done.sessionUpdate === "tool_call_update" ? done.content?.find((c) => c.type === "diff") : undefined;
    assert.ok(landed && landed.type === "diff" && landed.newText === before.replace("line 1\n", "LINE ONE\n"));
  } finally {
    await hermes.close();
  }
});

test("a client that does not serve writes gets the plain request: no partial-accept mark", async () => {
  const model = scripted();
  const project = await makeTempDir();
  await writeFile(path.join(project, "a.txt"), before);
  model.enqueue({ toolCalls: [{ id: "p", name: "patch", arguments: { path: "a.txt", old_string: "line 3\n", new_string: "line three\n" } }] }, { text: "ok" });
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: "allow" });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    await hermes.prompt(sessionId, "spell it out");
    const asked = hermes.permissionRequests[0]!;
    assert.equal(asked._meta?.["hermes/partialAccept"], undefined);
    assert.ok(asked.toolCall.content?.some((c) => c.type === "diff"));
    assert.equal(await readFile(path.join(project, "a.txt"), "utf8"), before.replace("line 3\n", "line three\n"));
  } finally {
    await hermes.close();
  }
});
