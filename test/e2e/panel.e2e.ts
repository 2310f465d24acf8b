// The end-to-end check of the VS Code extension: the packaged .vsix installed into code-server
// (a real VS Code), its chat panel driven in Debian's chromium, the agent answered by the
// scripted model server. One flow, as a user would go through it:
//   open the panel → a prompt gets a streamed reply → a command asks and is approved →
//   an edit is decided per hunk in its one card (one of two accepted) → the file on disk has only that hunk →
//   the window reloads → the session is found in history and opens again.
// Screenshots of every step (and of a failure) and the logs of code-server, the extension host
// and Hermes land in test-artifacts/e2e/. Run with `npm run test:e2e` (test/e2e/run.sh).
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import type { Frame } from "playwright-core";
import { agentProcesses, send, usePanelWorkbench, waitFor, waitForAttribute, waitForCount, waitForIdle, watchAgentText } from "./panel-fixture";
import { findPanelFrame, openHermesView, resizeSidebar, runCommand, waitForWorkbench } from "./workbench";

const SIDEBAR_WIDTH = 560; // room for the panel in the screenshots
const FIRST_PROMPT = "Say hello to the end-to-end test";
const GREETING =
  "Hello from the **scripted model**! I can read, edit and run things in this workspace. Ask me to clean the build folder or to update your notes.";
const NOTES_BEFORE = Array.from({ length: 20 }, (_, i) => `Line ${i + 1}: note number ${i + 1}`).join("\n") + "\n";
// Two changes 16 lines apart: two separate hunks.
const NOTES_BOTH = NOTES_BEFORE.replace("Line 2: note number 2", "Line 2: note number 2, reviewed").replace("Line 19: note number 19", "Line 19: CHANGED");
const NOTES_FIRST_ONLY = NOTES_BEFORE.replace("Line 2: note number 2", "Line 2: note number 2, reviewed");

const bench = usePanelWorkbench({
  logPrefix: "",
  prepareWorkspace: (workspace) => {
    mkdirSync(path.join(workspace, "build"), { recursive: true });
    writeFileSync(path.join(workspace, "notes.txt"), NOTES_BEFORE);
    writeFileSync(path.join(workspace, "build", "output.bin"), "stale build output\n");
  },
});
const { step, timings } = bench;

test("the packaged extension in code-server: chat, permission, per-hunk review, history after reload", async () => {
  const p = bench.page;
  const { model, workspace, hermesHome } = bench;
  const started = Date.now();

  let panel!: Frame;
  await step("01-panel-open", async () => {
    await p.goto(`${bench.server.url}/?folder=${encodeURIComponent(workspace)}`);
    await waitForWorkbench(p);
    await openHermesView(p);
    await resizeSidebar(p, SIDEBAR_WIDTH);
    panel = await findPanelFrame(p);
    await panel.locator("[data-testid=composer]").waitFor({ state: "visible", timeout: 30_000 });
    // Opening the view starts the agent, with the environment from hermes.agent.env.
    await waitForAttribute(panel.locator("[data-testid=connection-status]").first(), "data-status", /^ready$/, 60_000);
    assert.ok(agentProcesses(hermesHome).length > 0, "no agent process runs with HERMES_HOME from hermes.agent.env");
  });

  await step("02-streamed-reply", async () => {
    model.enqueue({ text: GREETING, chunkDelayMs: 60 });
    await send(panel, FIRST_PROMPT);
    await panel.locator("[data-testid=msg-user]").filter({ hasText: FIRST_PROMPT }).waitFor({ timeout: 30_000 });
    const seen = await watchAgentText(panel, "Ask me to clean the build folder or to update your notes.", 60_000);
    // The reply arrived in pieces: the panel showed it growing before it was complete.
    const partial = seen.filter((text) => text.length > 0 && !text.includes("update your notes"));
    assert.ok(partial.length >= 2, `the reply should stream in visibly; saw only ${JSON.stringify(seen)}`);
    await panel.locator("[data-testid=msg-agent] strong").filter({ hasText: "scripted model" }).first().waitFor({ timeout: 10_000 });
    await waitForIdle(panel);
  });

  await step("03-permission-card", async () => {
    model.enqueue({ toolCalls: [{ name: "terminal", arguments: { command: "rm -rfv build" } }] }, { text: "The build folder is gone." });
    await send(panel, "Clean the build folder");
    const card = panel.locator("[data-testid=permission-card]").last();
    await card.waitFor({ state: "visible", timeout: 60_000 });
    await card.locator("[data-option-kind=allow_once]").waitFor({ state: "visible", timeout: 10_000 });
    // The card says why it asks (the command screen's reason), not just what.
    await card.getByText(/recursive delete/).waitFor({ state: "visible", timeout: 10_000 });
    assert.ok(existsSync(path.join(workspace, "build")), "nothing runs before the user answers");
  });

  await step("04-permission-approved", async () => {
    await panel.locator("[data-testid=permission-card]").last().locator("[data-option-kind=allow_once]").click();
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "The build folder is gone." }).waitFor({ timeout: 60_000 });
    await waitFor(() => !existsSync(path.join(workspace, "build")), 30_000, "build/ was not removed after the approval");
    await waitForAttribute(panel.locator("[data-testid=tool-card]").last(), "data-status", /^completed$/, 30_000);
    // The command ran in a VS Code terminal; its output (rm -v names what it removed) shows in the card.
    await panel.locator("[data-testid=tool-card]").last().getByText(/removed .*output\.bin/).waitFor({ state: "visible", timeout: 30_000 });
    await waitForIdle(panel);
  });

  // In the default mode an edit asks once: its tool card holds the hunks to accept or reject
  // (test/e2e/edit-decision.e2e.ts checks that flow in depth).
  const decision = () => panel.locator("[data-testid=tool-card] [data-testid=permission-card][data-embedded=true]").last();
  await step("05-review-card", async () => {
    model.enqueue({ toolCalls: [{ name: "write_file", arguments: { path: "notes.txt", content: NOTES_BOTH } }] }, { text: "I updated notes.txt as you reviewed it." });
    await send(panel, "Update the second and the second-to-last note");
    await decision().waitFor({ state: "visible", timeout: 60_000 });
    await waitForCount(decision().locator("[data-testid=review-hunk]"), 2, 30_000);
    assert.equal(await panel.locator("[data-testid=review-card]").count(), 0, "asked once: no review card after the permission");
    assert.equal(readFileSync(path.join(workspace, "notes.txt"), "utf8"), NOTES_BEFORE, "nothing is written before the review");
  });

  await step("06-review-decided", async () => {
    const review = decision();
    const hunks = review.locator("[data-testid=review-hunk]");
    await hunks.nth(0).locator("[data-testid=hunk-accept]").click();
    await waitForAttribute(hunks.nth(0), "data-decision", /^accepted$/, 10_000);
    // The last decision answers the card (its hunks give way to what landed, in the tool card).
    await hunks.nth(1).locator("[data-testid=hunk-reject]").click();
    await waitFor(() => readFileSync(path.join(workspace, "notes.txt"), "utf8") === NOTES_FIRST_ONLY, 30_000, () => `notes.txt on disk is not the first hunk only:\n${readFileSync(path.join(workspace, "notes.txt"), "utf8")}`);
    await waitForAttribute(review, "data-outcome", /^allow_once$/, 30_000);
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "I updated notes.txt" }).waitFor({ timeout: 60_000 });
    await waitForIdle(panel);
    // The model learnt that only part of its edit was written.
    const toolResults = model.requests.flatMap((r) => (r.body?.messages ?? []).filter((m: { role: string }) => m.role === "tool"));
    assert.ok(
      toolResults.some((m: { content: unknown }) => JSON.stringify(m.content).includes("accepted 1 of 2 hunks")),
      "the write_file result tells the model 1 of 2 hunks were accepted",
    );
  });

  await step("07-history-after-reload", async () => {
    await p.reload();
    await waitForWorkbench(p);
    await openHermesView(p);
    await resizeSidebar(p, SIDEBAR_WIDTH);
    panel = await findPanelFrame(p);
    // History is the view's own title-bar action (not repeated in the panel).
    await runCommand(p, "Hermes: Show Chat History");
    const search = panel.locator("[data-testid=history-search]");
    await search.waitFor({ state: "visible", timeout: 30_000 });
    await search.fill("end-to-end");
    await panel.locator("[data-testid=history-item]").filter({ hasText: FIRST_PROMPT }).first().waitFor({ timeout: 30_000 });
  });

  await step("08-session-reopened", async () => {
    await panel.locator("[data-testid=history-item]").filter({ hasText: FIRST_PROMPT }).first().click();
    await panel.locator("[data-testid=msg-user]").filter({ hasText: FIRST_PROMPT }).waitFor({ timeout: 30_000 });
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "I updated notes.txt" }).waitFor({ timeout: 30_000 });
  });

  timings.push(`whole flow: ${Date.now() - started} ms`);
  assert.equal(readFileSync(path.join(workspace, "notes.txt"), "utf8"), NOTES_FIRST_ONLY);
});

