// Many chats at once (issue 32), in the packaged .vsix in code-server: two chats run their turns
// at the same time (the scripted model holds both replies until both turns reached it), the tab
// strip shows both running; the one in the background finishing raises a VS Code notification
// whose "Show" brings it back; a chat opened in a worktree shows its branch, edits there without
// touching the checkout, and "Review & apply" brings the accepted hunks into the checkout.
// Screenshots: test-artifacts/e2e/m<NN>-*.png.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import type { Frame } from "playwright-core";
import { send, usePanelWorkbench, waitFor, waitForAttribute, waitForCount, waitForIdle } from "./panel-fixture";
import { findPanelFrame, openHermesView, resizeSidebar, runCommand, waitForWorkbench } from "./workbench";

const NOTES = Array.from({ length: 20 }, (_, i) => `Line ${i + 1}: note ${i + 1}`).join("\n") + "\n";
const EDITED = NOTES.replace("Line 2: note 2\n", "Line 2: from the worktree chat\n").replace("Line 19: note 19\n", "Line 19: also changed\n");

const bench = usePanelWorkbench({
  logPrefix: "many-",
  prepareWorkspace: (workspace) => {
    const git = (...args: string[]) => execFileSync("git", args, { cwd: workspace, env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });
    writeFileSync(path.join(workspace, "notes.txt"), NOTES);
    git("init", "-q", "-b", "main");
    git("add", ".");
    git("commit", "-q", "-m", "start");
  },
});
const { step } = bench;

/** A reply the scripted model sends only once `release()` is called. */
function heldReply(text: string) {
  return held({ text });
}

function held<R>(reply: R) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { reply: { handler: async () => (await gate, reply) }, release };
}

test("two chats at once, a background chat's notification, a worktree chat's Review & apply", async () => {
  const p = bench.page;
  const { model, workspace } = bench;
  let panel!: Frame;
  const tabs = () => panel.locator("[data-testid=chat-tab]");
  const first = heldReply("The first chat's answer.");
  const second = heldReply("The second chat's answer.");

  await step("m01-first-chat-running", async () => {
    await p.goto(`${bench.server.url}/?folder=${encodeURIComponent(workspace)}`);
    await waitForWorkbench(p);
    await openHermesView(p);
    await resizeSidebar(p, 560);
    panel = await findPanelFrame(p);
    await waitForAttribute(panel.locator("[data-testid=connection-status]").first(), "data-status", /^ready$/, 60_000);
    model.enqueue(first.reply, second.reply);
    const before = model.requests.length;
    await send(panel, "Summarize the notes");
    await model.waitForRequests(before + 1, 60_000);
    assert.equal(await tabs().count(), 0, "one chat: no tab strip");
  });

  await step("m02-two-chats-running-at-once", async () => {
    const before = model.requests.length;
    await runCommand(p, "Hermes: New Chat");
    await waitForCount(tabs(), 2, 30_000);
    await waitFor(async () => (await panel.locator("[data-testid=msg-user]").count()) === 0, 15_000, "the new chat is not empty");
    await send(panel, "Count the notes");
    await model.waitForRequests(before + 1, 60_000);
    // Both turns reached the model and wait there: both tabs say running.
    await waitForAttribute(tabs().nth(0), "data-status", /^running$/, 15_000);
    await waitForAttribute(tabs().nth(1), "data-status", /^running$/, 15_000);
    assert.equal(await tabs().nth(1).locator("[role=tab]").getAttribute("aria-selected"), "true", "the new chat is shown");
    assert.deepEqual(await tabs().locator(".chat-tab-title").allTextContents(), ["Summarize the notes", "Count the notes"], "named by their first prompt until Hermes titles them");
  });

  await step("m03-background-chat-finished-notification", async () => {
    first.release();
    const toast = p.locator(".notification-toast").filter({ hasText: "finished its turn" });
    await toast.waitFor({ state: "visible", timeout: 60_000 });
    assert.match((await toast.textContent()) ?? "", /Summarize the notes/);
    await waitForAttribute(tabs().nth(0), "data-status", /^idle$/, 15_000);
    assert.match((await tabs().nth(0).getAttribute("class")) ?? "", /unseen/, "the background tab is marked");
    // The shown chat is still running its own turn.
    await waitForAttribute(tabs().nth(1), "data-status", /^running$/, 5_000);
  });

  await step("m04-show-brings-the-chat-back", async () => {
    await p.locator(".notification-toast").filter({ hasText: "finished its turn" }).getByRole("button", { name: "Show" }).click();
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "The first chat's answer." }).waitFor({ timeout: 30_000 });
    await waitForAttribute(tabs().nth(0).locator("[role=tab]"), "aria-selected", /^true$/, 10_000);
    second.release();
    await waitForAttribute(tabs().nth(1), "data-status", /^idle$/, 60_000);
    await tabs().nth(1).locator("[role=tab]").click();
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "The second chat's answer." }).waitFor({ timeout: 30_000 });
    assert.equal(await panel.locator("[data-testid=msg-agent]").filter({ hasText: "first chat" }).count(), 0, "each chat keeps its own transcript");
  });

  await step("m04b-background-chat-asks-permission", async () => {
    // The first chat runs a command that needs a yes while the second is shown.
    await tabs().nth(0).locator("[role=tab]").click();
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "The first chat's answer." }).waitFor({ timeout: 30_000 });
    const asking = held({ toolCalls: [{ name: "terminal", arguments: { command: "rm -rf build" } }] });
    model.enqueue(asking.reply, { text: "Removed the build folder." });
    const before = model.requests.length;
    await send(panel, "Remove the build folder");
    await model.waitForRequests(before + 1, 60_000);
    await tabs().nth(1).locator("[role=tab]").click();
    await waitForAttribute(tabs().nth(1).locator("[role=tab]"), "aria-selected", /^true$/, 10_000);
    asking.release();
    const toast = p.locator(".notification-toast").filter({ hasText: "needs your permission" });
    await toast.waitFor({ state: "visible", timeout: 60_000 });
    await waitForAttribute(tabs().nth(0), "data-status", /^waiting$/, 15_000);
    await toast.getByRole("button", { name: "Show" }).click();
    await waitForAttribute(tabs().nth(0).locator("[role=tab]"), "aria-selected", /^true$/, 10_000);
    const card = panel.locator("[data-testid=permission-card][data-outcome='']").last();
    await card.waitFor({ state: "visible", timeout: 15_000 });
    assert.match((await card.textContent()) ?? "", /rm -rf build/);
    await card.locator("[data-option-kind=allow_once]").click();
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "Removed the build folder." }).waitFor({ timeout: 60_000 });
    await waitForAttribute(tabs().nth(0), "data-status", /^idle$/, 15_000);
  });

  await step("m05-new-chat-in-a-worktree", async () => {
    await panel.locator("[data-testid=new-worktree-chat]").click();
    const input = p.locator(".quick-input-widget input.input");
    await input.waitFor({ state: "visible", timeout: 15_000 });
    await input.fill("feature/notes");
    await p.keyboard.press("Enter");
    await waitForCount(tabs(), 3, 30_000);
    const badge = panel.locator("[data-testid=worktree-bar] [data-testid=worktree-badge]");
    await badge.waitFor({ state: "visible", timeout: 30_000 });
    assert.equal((await badge.textContent())?.trim(), "feature/notes");
    await panel.locator("[data-testid=worktree-apply]").waitFor({ state: "visible", timeout: 5_000 });
  });

  await step("m06-worktree-chat-edits-its-own-copy", async () => {
    model.enqueue(
      { toolCalls: [{ id: "w1", name: "write_file", arguments: { path: "notes.txt", content: EDITED } }] },
      { text: "I changed two notes in the worktree." },
    );
    await send(panel, "Change the second and the second-to-last note");
    const decision = panel.locator("[data-testid=permission-card][data-outcome='']").last();
    await decision.waitFor({ state: "visible", timeout: 60_000 });
    await decision.locator("[data-option-kind=allow_once]").click();
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "in the worktree" }).waitFor({ timeout: 60_000 });
    await waitForIdle(panel);
    assert.equal(readFileSync(path.join(workspace, "notes.txt"), "utf8"), NOTES, "the checkout is untouched before apply");
  });

  await step("m07-review-and-apply-hunk-by-hunk", async () => {
    await panel.locator("[data-testid=worktree-apply]").click();
    const card = panel.locator("[data-testid=review-card]").last();
    await card.waitFor({ state: "visible", timeout: 30_000 });
    const hunks = card.locator("[data-testid=review-hunk]");
    await waitForCount(hunks, 2, 15_000);
    await hunks.nth(0).locator("[data-testid=hunk-accept]").click();
    await hunks.nth(1).locator("[data-testid=hunk-reject]").click();
    const applied = NOTES.replace("Line 2: note 2\n", "Line 2: from the worktree chat\n");
    await waitFor(() => readFileSync(path.join(workspace, "notes.txt"), "utf8") === applied, 30_000, () => `notes.txt is not the accepted hunk only:\n${readFileSync(path.join(workspace, "notes.txt"), "utf8")}`);
    await panel.locator(".notice").filter({ hasText: "Applied the accepted changes" }).waitFor({ timeout: 30_000 });
  });

  await step("m08-apply-refused-names-the-file", async () => {
    // The checkout now has that change uncommitted: applying again is refused, naming the file.
    await panel.locator("[data-testid=worktree-apply]").click();
    const card = panel.locator("[data-testid=review-card]").last();
    await waitFor(async () => (await card.getAttribute("data-status")) === "pending" || (await panel.locator("[data-testid=review-card]").count()) >= 2, 30_000, "no second review");
    await panel.locator("[data-testid=review-card]").last().locator("[data-testid=review-accept-all]").click();
    const refusal = panel.locator(".notice").filter({ hasText: "Not applied" });
    await refusal.waitFor({ timeout: 30_000 });
    assert.match((await refusal.textContent()) ?? "", /notes\.txt/);
    await waitForAttribute(panel.locator("[data-testid=review-card]").last(), "data-status", /^cancelled$/, 10_000);
    assert.equal(readFileSync(path.join(workspace, "notes.txt"), "utf8"), NOTES.replace("Line 2: note 2\n", "Line 2: from the worktree chat\n"), "nothing more was applied");
  });
  await step("m09-reload-reopens-the-chats", async () => {
    await runCommand(p, "Developer: Reload Window");
    await waitForWorkbench(p);
    await openHermesView(p);
    panel = await findPanelFrame(p);
    await waitForAttribute(panel.locator("[data-testid=connection-status]").first(), "data-status", /^ready$/, 60_000);
    await waitForCount(tabs(), 3, 60_000);
    // Each reopened tab reads "New chat" until its session's title arrives.
    let titles = "";
    await waitFor(
      async () => (titles = (await tabs().locator(".chat-tab-title").allTextContents()).slice(0, 2).join(" | ")) === "Summarize the notes | Count the notes",
      30_000,
      () => `the reopened tabs' titles: ${titles}`,
    );
    // The worktree chat is the one shown again, with its branch (Hermes says so when it is loaded).
    await waitForAttribute(tabs().nth(2).locator("[role=tab]"), "aria-selected", /^true$/, 30_000);
    await panel.locator("[data-testid=worktree-bar] [data-testid=worktree-badge]").filter({ hasText: "feature/notes" }).waitFor({ timeout: 30_000 });
    await panel.locator(".notice").filter({ hasText: "Not applied" }).waitFor({ timeout: 30_000 });
  });

  await step("m10-discard-asks-then-discards", async () => {
    await panel.locator("[data-testid=worktree-discard]").click();
    const ask = panel.locator("[data-testid=permission-card][data-outcome='']").last();
    await ask.waitFor({ state: "visible", timeout: 30_000 });
    assert.match((await ask.textContent()) ?? "", /feature\/notes/);
    await ask.locator("[data-option-kind=allow_once]").click();
    await panel.locator("[data-testid=worktree-bar]").waitFor({ state: "detached", timeout: 30_000 });
    const branches = execFileSync("git", ["branch", "--list", "feature/notes"], { cwd: workspace, encoding: "utf8" });
    assert.equal(branches.trim(), "", "the branch is gone");
  });
});
