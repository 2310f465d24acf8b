// browser_upload over the real protocol (agent in process on real pipes, a real Chromium, a page
// this test serves on 127.0.0.1, a scripted model): a workspace file goes into the page's file
// input (or the chooser a button opens) without a question; a file outside the workspace is
// asked about each time in Default mode (uploaded only on yes) and refused in Plan and Don't
// ask mode; a credential (.env, a file under .ssh/) is refused in every mode with no question.
// The page shows what it received, so the test sees what really arrived. A download lands in
// the session's temp folder.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import type { RecordedRequest } from "../support/scripted-http";
import { makeTempDir, scriptedConfig, startAgent } from "../support/in-process-agent";
import { waitForChangeIn } from "../support/wait";
import { useScriptedModel } from "../support/scripted-model";
import { startServer, type TestServer } from "../support/web-servers";

const scripted = useScriptedModel();
const CHROMIUM = "/usr/bin/chromium";
const skip = existsSync(CHROMIUM) ? false : `no ${CHROMIUM} on this machine`;
let site: TestServer;

// The page reads each chosen file and shows "Got <name>: <text>", the evidence of an upload.
const PAGE = `<!doctype html><title>Upload</title>
<label for="f">Attachment</label><input id="f" type="file" multiple>
<input id="hidden" type="file" style="display:none"><button onclick="document.getElementById('hidden').click()">Choose a logo</button>
<p id="out">Nothing yet</p>
<a href="/report.csv" download="report.csv">Download report</a>
<script>
for (const id of ["f", "hidden"]) document.getElementById(id).addEventListener("change", async (event) => {
  const parts = [];
  for (const file of event.target.files) parts.push("Got " + file.name + ": " + (await file.text()).trim());
  document.getElementById("out").textContent = parts.join(" | ");
});
</script>`;

before(async () => {
  site = await startServer({
    "/": (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(PAGE),
    "/report.csv": (_req, res) => res.writeHead(200, { "content-type": "text/csv" }).end("a,b\n1,2\n"),
  });
});
after(async () => {
  await site.close();
});

function toolResult(request: RecordedRequest, id: string): string {
  const message = request.body.messages.findLast((m: { role: string; tool_call_id?: string }) => m.role === "tool" && m.tool_call_id === id) as { content: string } | undefined;
  assert.ok(message, `no result for ${id}`);
  return message.content;
}

function refIn(text: string, pattern: RegExp): string {
  const line = text.split("\n").find((l) => pattern.test(l));
  const ref = line && /\[ref=(\w+)\]/.exec(line)?.[1];
  assert.ok(ref, `no ref for ${pattern} in:\n${text}`);
  return ref;
}

test("uploads: the workspace goes, outside asks (Default) or is refused (Plan, Don't ask), credentials never go; downloads land in the session's temp folder", { skip }, async () => {
  const model = scripted();
  const project = await makeTempDir("hermes-upload-project-");
  writeFileSync(path.join(project, "notes.txt"), "inside notes\n");
  writeFileSync(path.join(project, ".env"), "API_TOKEN=not-for-the-page\n");
  const elsewhere = await makeTempDir("hermes-upload-elsewhere-");
  const outsideFile = path.join(elsewhere, "outside.txt");
  writeFileSync(outsideFile, "outside words\n");
  mkdirSync(path.join(project, "keys", ".ssh"), { recursive: true });
  writeFileSync(path.join(project, "keys", ".ssh", "id_test"), "PRIVATE\n");

  let answer = "allow_once";
  const hermes = await startAgent({ config: scriptedConfig(model.url, { tools: { enabled: ["browser"] }, browser: { executable: CHROMIUM } }), permission: () => answer });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);

    /** One turn: open the page, upload `paths` into its input, read what the page shows. */
    let turn = 0;
    const uploadTurn = async (paths: string[], target = /button "Attachment"/) => {
      turn++;
      const asked = hermes.permissionRequests.length;
      const first = model.requests.length;
      model.enqueue(
        { toolCalls: [{ id: "n", name: "browser_navigate", arguments: { url: `${site.origin}/?turn=${turn}` } }] },
        { handler: (request) => ({ toolCalls: [{ id: "u", name: "browser_upload", arguments: { ref: refIn(toolResult(request, "n"), target), paths } }] }) },
        { toolCalls: [{ id: "s", name: "browser_snapshot", arguments: {} }] },
        { text: "done" },
      );
      assert.equal((await hermes.prompt(sessionId, `upload ${paths.join(" ")}`)).stopReason, "end_turn");
      const requests = model.requests.slice(first);
      return { upload: toolResult(requests[2]!, "u"), page: toolResult(requests[3]!, "s"), questions: hermes.permissionRequests.slice(asked) };
    };

    // Inside the workspace: no question, the page got the file.
    const inside = await uploadTurn(["notes.txt"]);
    assert.deepEqual(inside.questions, [], "a workspace file is not asked about");
    assert.match(inside.page, /Got notes\.txt: inside notes/);

    // A button that opens the file chooser from script: the chooser gets the file.
    const chooser = await uploadTurn(["notes.txt"], /button "Choose a logo"/);
    assert.deepEqual(chooser.questions, []);
    assert.match(chooser.page, /Got notes\.txt: inside notes/, chooser.upload);

    // Outside, Default mode, allowed once: asked (once-only options), uploaded.
    const allowed = await uploadTurn([outsideFile]);
    assert.equal(allowed.questions.length, 1, "asked about the outside file");
    assert.deepEqual(allowed.questions[0]!.options.map((o) => o.optionId), ["allow_once", "reject_once"], "each time: nothing remembered");
    assert.match(allowed.page, /Got outside\.txt: outside words/, allowed.upload);
    // Asked again the next time: no answer was remembered.
    answer = "reject_once";
    const rejected = await uploadTurn([outsideFile]);
    assert.equal(rejected.questions.length, 1, "asked again");
    assert.match(rejected.upload, /not allow|reject/i);
    assert.match(rejected.page, /Nothing yet/, "a rejected file never reached the page");

    // Credentials: refused without a question, in Default mode too.
    answer = "allow_once";
    for (const secret of [".env", "keys/.ssh/id_test"]) {
      const refused = await uploadTurn([secret]);
      assert.deepEqual(refused.questions, [], `${secret}: refused, not asked`);
      assert.match(refused.upload, /does not upload credentials/);
      assert.match(refused.page, /Nothing yet/);
    }
    assert.doesNotMatch(JSON.stringify(model.requests.map((r) => r.body)), /not-for-the-page|PRIVATE/, "no credential reached the model either");

    // Don't ask: an outside file is refused (nobody to ask); a workspace file still goes.
    await hermes.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "dont_ask" });
    const dontAsk = await uploadTurn([outsideFile]);
    assert.deepEqual(dontAsk.questions, []);
    assert.match(dontAsk.upload, /Refused in Don't ask mode/);
    assert.match(dontAsk.page, /Nothing yet/);
    assert.match((await uploadTurn(["notes.txt"])).page, /Got notes\.txt/);

    // Plan mode: no upload at all.
    await hermes.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "plan" });
    const plan = await uploadTurn(["notes.txt"]);
    assert.deepEqual(plan.questions, []);
    assert.match(plan.upload, /Not allowed|Plan mode/);
    assert.match(plan.page, /Nothing yet/);

    // A download goes to the session's temp folder (saved as the page finishes sending it: waited on by watching the folder).
    await hermes.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "default" });
    model.enqueue(
      { toolCalls: [{ id: "n", name: "browser_navigate", arguments: { url: `${site.origin}/?download` } }] },
      { handler: (request) => ({ toolCalls: [{ id: "c", name: "browser_click", arguments: { ref: refIn(toolResult(request, "n"), /Download report/) } }] }) },
      { text: "downloaded" },
    );
    await hermes.prompt(sessionId, "download the report");
    const downloads = path.join(os.tmpdir(), `hermes-browser-${sessionId.replace(/[^\w-]/g, "_")}`, "downloads");
    const target = path.join(downloads, "report.csv");
    const saved = await waitForChangeIn(downloads, () => existsSync(target) && readFileSync(target, "utf8"), 15_000, `${target} saved`);
    assert.equal(saved, "a,b\n1,2\n");
  } finally {
    await hermes.close();
  }
});
