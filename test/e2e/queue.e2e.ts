// The panel's queue is Hermes's (issue 19), in the packaged .vsix in code-server: messages sent
// while a turn runs wait in the agent's session queue and the dock lists that queue; `/queue`
// typed in the composer shows the same list; one can be removed, or all cleared; a queued
// message shows in the transcript when its turn starts. One screenshot per item in
// test-artifacts/e2e/, named q<NN>-<item>.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Frame } from "playwright-core";
import { send, usePanelWorkbench, waitFor, waitForAttribute, waitForCount, waitForIdle } from "./panel-fixture";
import { findPanelFrame, openHermesView, resizeSidebar, waitForWorkbench } from "./workbench";

const bench = usePanelWorkbench({ logPrefix: "queue-" });
const { step } = bench;

/** A reply the scripted model sends only once `release()` is called. */
function heldReply(text: string) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { reply: { handler: async () => (await gate, { text }) }, release };
}

const userPromptsSent = (requests: { body: any }[]) =>
  requests.map((r) => r.body.messages.filter((m: any) => m.role === "user").at(-1)?.content).map((c: any) => (typeof c === "string" ? c : JSON.stringify(c)));

test("messages sent during a turn wait in Hermes's queue: listed, /queue, remove one, clear all, run in order", async () => {
  const p = bench.page;
  const { model, workspace } = bench;
  let panel!: Frame;
  const queued = () => panel.locator("[data-testid=queued-prompt]");
  let first!: ReturnType<typeof heldReply>;

  await step("q01-queued-while-a-turn-runs", async () => {
    await p.goto(`${bench.server.url}/?folder=${encodeURIComponent(workspace)}`);
    await waitForWorkbench(p);
    await openHermesView(p);
    await resizeSidebar(p, 440);
    panel = await findPanelFrame(p);
    await waitForAttribute(panel.locator("[data-testid=connection-status]").first(), "data-status", /^ready$/, 60_000);
    first = heldReply("Here is the outline.");
    model.enqueue(first.reply, { text: "Added the tests section." });
    const before = model.requests.length;
    await send(panel, "Outline the README");
    await model.waitForRequests(before + 1, 60_000);
    await send(panel, "Then add a tests section");
    await send(panel, "And a changelog");
    await waitForCount(queued(), 2, 15_000);
    assert.deepEqual(await queued().allTextContents(), ["Then add a tests section", "And a changelog"]);
    assert.equal(await panel.locator("[data-testid=msg-user]").count(), 1, "not in the transcript before they run");
    assert.equal(model.requests.length, before + 1, "the running turn is the only model call");
  });

  await step("q02-slash-queue-lists-the-same", async () => {
    await send(panel, "/queue");
    const listing = panel.locator(".notice").filter({ hasText: "2 prompts wait behind the running turn" });
    await listing.waitFor({ timeout: 15_000 });
    const text = (await listing.textContent()) ?? "";
    assert.match(text, /1\. Then add a tests section/);
    assert.match(text, /2\. And a changelog/);
    await waitForCount(queued(), 2, 5_000);
  });

  await step("q03-remove-one", async () => {
    await queued().nth(1).locator("button").click();
    await waitForCount(queued(), 1, 15_000);
    assert.deepEqual(await queued().allTextContents(), ["Then add a tests section"]);
  });

  await step("q04-runs-after-the-turn", async () => {
    first.release();
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "Added the tests section." }).waitFor({ timeout: 60_000 });
    await waitForIdle(panel);
    await waitForCount(queued(), 0, 15_000);
    const users = await panel.locator("[data-testid=msg-user]").allTextContents();
    assert.equal(users.length, 2);
    assert.match(users[1]!, /Then add a tests section/, "shown when its turn started");
    const sent = userPromptsSent(model.requests);
    assert.ok(!sent.some((t) => t.includes("changelog")), "the removed message never reached the model");
  });

  await step("q05-clear-all", async () => {
    const running = heldReply("Done reviewing.");
    model.enqueue(running.reply);
    const before = model.requests.length;
    await send(panel, "Review the code");
    await model.waitForRequests(before + 1, 60_000);
    await send(panel, "one more thing");
    await send(panel, "and another");
    await waitForCount(queued(), 2, 15_000);
    await panel.locator("[data-testid=clear-queue]").click();
    await waitForCount(queued(), 0, 15_000);
    await panel.locator(".notice").filter({ hasText: "Cleared the queue: 2 waiting prompts dropped." }).waitFor({ timeout: 15_000 });
    running.release();
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "Done reviewing." }).waitFor({ timeout: 60_000 });
    await waitForIdle(panel);
    await waitFor(() => model.requests.length === before + 1, 5_000, "no dropped message ran");
  });
});
