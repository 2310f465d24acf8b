// Undo from the panel (issue 16), in the packaged .vsix in code-server: a message whose turn
// changed files offers "Restore checkpoint"; Files only shows the agent's permission card with
// the diff and restores the disk after a yes; "Edit and resend" restores the files (after the
// same card), forks the chat before the message and sends the edited text in the fork, which
// the panel shows; the offer survives a window reload; Files and conversation restores and
// opens the rewound branch. One screenshot per item in test-artifacts/e2e/, named ckpt-<NN>-<item>.
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import type { Frame } from "playwright-core";
import { send, usePanelWorkbench, waitFor, waitForAttribute, waitForIdle, type Locator } from "./panel-fixture";
import { findPanelFrame, openHermesView, resizeSidebar, waitForWorkbench } from "./workbench";

const SIDEBAR_WIDTH = 520;

const bench = usePanelWorkbench({
  logPrefix: "ckpt-",
  prepareWorkspace: (workspace) => writeFileSync(path.join(workspace, "a.txt"), "one\n"),
  // Edits land without a question or a per-hunk review, so the restore's card is the only question.
  settings: { "hermes.defaultMode": "accept_edits", "hermes.review.edits": "off" },
});
const { step } = bench;

test("restore from a message (files only, files and conversation) and edit-and-resend in the panel", async () => {
  const p = bench.page;
  const { model, workspace } = bench;
  const file = (name: string) => path.join(workspace, name);
  const read = (name: string) => (existsSync(file(name)) ? readFileSync(file(name), "utf8") : null);
  const write = (id: string, name: string, content: string) => ({ toolCalls: [{ id, name: "write_file", arguments: { path: name, content } }] });
  let panel!: Frame;
  const userMessages = () => panel.locator("[data-testid=msg-user]");
  const userTexts = () => panel.locator("[data-testid=msg-user] .msg-user-text").allTextContents();
  const message = (text: string) => panel.locator(".msg-user-wrap").filter({ has: panel.locator(".msg-user-text", { hasText: text }) }).first();
  const openPanel = async () => {
    await waitForWorkbench(p);
    await openHermesView(p);
    await resizeSidebar(p, SIDEBAR_WIDTH);
    panel = await findPanelFrame(p);
    await waitForAttribute(panel.locator("[data-testid=connection-status]").first(), "data-status", /^ready$/, 60_000);
  };
  /** The restore's permission card: waits for it, checks its diff names `file`, answers with the first (allowing) choice. */
  const allowRestore = async (shot: string, fileName: string) => {
    const card = panel.locator("[data-testid=permission-card][data-outcome='']").last();
    await card.locator("[data-option-kind=allow_once]").first().waitFor({ timeout: 60_000 });
    assert.match((await card.textContent()) ?? "", new RegExp(fileName.replace(".", "\\.")), `the preview names ${fileName}`);
    await card.scrollIntoViewIfNeeded();
    await bench.shot(shot);
    await card.locator("[data-option-kind=allow_once]").first().click();
  };
  const hoverAndClick = async (wrap: Locator, testId: string) => {
    await wrap.scrollIntoViewIfNeeded();
    await wrap.locator("[data-testid=msg-user]").hover();
    await wrap.locator(`[data-testid=${testId}]`).click();
  };

  await step("ckpt-01-three-turns", async () => {
    await p.goto(`${bench.server.url}/?folder=${encodeURIComponent(workspace)}`);
    await openPanel();
    model.enqueue({ text: "Just words, no change." });
    await send(panel, "talk only");
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "Just words" }).waitFor({ timeout: 60_000 });
    await waitForIdle(panel);
    model.enqueue(write("w1", "a.txt", "two\n"), { text: "Changed a.txt." });
    await send(panel, "change a");
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "Changed a.txt." }).waitFor({ timeout: 60_000 });
    await waitForIdle(panel);
    model.enqueue(write("w2", "b.txt", "b\n"), { text: "Added b.txt." });
    await send(panel, "add b");
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "Added b.txt." }).waitFor({ timeout: 60_000 });
    await waitForIdle(panel);
    await waitFor(() => read("b.txt") === "b\n" && read("a.txt") === "two\n", 30_000, "the turns' edits are on disk");
  });

  await step("ckpt-02-restore-offered", async () => {
    // Only the turns that changed files offer a restore; every prompt offers edit and resend.
    await message("add b").locator("[data-testid=restore-checkpoint]").waitFor({ state: "attached", timeout: 30_000 });
    assert.equal(await message("change a").locator("[data-testid=restore-checkpoint]").count(), 1);
    assert.equal(await message("talk only").locator("[data-testid=restore-checkpoint]").count(), 0, "a read-only turn has no checkpoint");
    assert.equal(await panel.locator("[data-testid=edit-resend]").count(), 3);
    await hoverAndClick(message("add b"), "restore-checkpoint");
    await panel.locator("[data-testid=restore-choices]").waitFor({ timeout: 10_000 });
    assert.match((await panel.locator("[data-testid=restore-choices]").textContent()) ?? "", /changed 1 file \(b\.txt\)/);
  });

  await step("ckpt-03-restore-files-only", async () => {
    await panel.locator("[data-testid=restore-files]").click();
    await allowRestore("ckpt-03-restore-files-preview", "b.txt");
    await waitFor(() => read("b.txt") === null, 30_000, "b.txt was not removed");
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "Restored 1 file to before turn 3" }).waitFor({ timeout: 30_000 });
    await waitForIdle(panel);
    assert.equal(read("a.txt"), "two\n", "turn 2's edit stays");
    assert.deepEqual((await userTexts()).slice(0, 3), ["talk only", "change a", "add b"], "files only: the conversation is unchanged");
  });

  await step("ckpt-04-edit-and-resend", async () => {
    await hoverAndClick(message("change a"), "edit-resend");
    const box = panel.locator("[data-testid=edit-resend-text]");
    await box.waitFor({ timeout: 10_000 });
    assert.equal(await box.inputValue(), "change a");
    assert.match((await panel.locator("[data-testid=edit-resend-note]").textContent()) ?? "", /files go back/);
    await box.fill("change a to three");
    await bench.shot("ckpt-04-edit-box");
    model.enqueue(write("w3", "a.txt", "three\n"), { text: "Now a.txt says three." });
    await box.press("Enter");
    await allowRestore("ckpt-04-edit-restore-preview", "a.txt");
    // The fork opens in the panel with the conversation before the message and the edited text.
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "Now a.txt says three." }).waitFor({ timeout: 60_000 });
    await waitForIdle(panel);
    assert.deepEqual(await userTexts(), ["talk only", "change a to three"]);
    await panel.getByText(/Rewound to before message 2/).first().waitFor({ timeout: 10_000 });
    await waitFor(() => read("a.txt") === "three\n", 30_000, "the resent turn's edit is on disk");
  });

  await step("ckpt-05-after-reload", async () => {
    await p.reload();
    await openPanel();
    await message("change a to three").waitFor({ timeout: 60_000 });
    assert.deepEqual(await userTexts(), ["talk only", "change a to three"], "the fork was reopened");
    await message("change a to three").locator("[data-testid=restore-checkpoint]").waitFor({ state: "attached", timeout: 30_000 });
    assert.equal(await message("talk only").locator("[data-testid=restore-checkpoint]").count(), 0);
  });

  await step("ckpt-06-restore-files-and-conversation", async () => {
    await hoverAndClick(message("change a to three"), "restore-checkpoint");
    await panel.locator("[data-testid=restore-files-conversation]").click();
    await allowRestore("ckpt-06-restore-both-preview", "a.txt");
    await waitFor(() => read("a.txt") === "one\n", 30_000, "a.txt is not back to before turn 2");
    await panel.getByText(/Rewound: this is a new branch/).first().waitFor({ timeout: 30_000 });
    await waitForIdle(panel);
    assert.deepEqual(await userTexts(), ["talk only"], "the rewound branch holds the chat before the message");
    assert.equal(await userMessages().count(), 1);
  });
});
