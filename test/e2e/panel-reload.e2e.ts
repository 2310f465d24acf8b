// What survives a window reload (issue 17), in the packaged .vsix in code-server: a permission
// question left open when the window reloads comes back cancelled ("Cancelled: the window
// reloaded; the command did not run") with its tool card, not gone; a 1 MB command output whose
// card keeps only part still opens whole in an editor ("Show all"), after the reload too; and
// history rows show each chat's first prompt and workspace. Screenshots r<NN>-<item>.png in
// test-artifacts/e2e/.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import type { Frame } from "playwright-core";
import { send, usePanelWorkbench, waitForAttribute, waitForIdle } from "./panel-fixture";
import { findPanelFrame, openHermesView, resizeSidebar, runCommand, waitForWorkbench } from "./workbench";

const bench = usePanelWorkbench({
  logPrefix: "reload-",
  prepareWorkspace: (workspace) => {
    writeFileSync(path.join(workspace, "README.md"), "# Demo\n");
    mkdirSync(path.join(workspace, "build"), { recursive: true });
  },
});
const { step } = bench;
const COUNT = 200_000; // seq 1 200000: 1.3 MB of output

test("after a window reload: the open question cancelled, the whole output still there, history rows", async () => {
  const p = bench.page;
  const { model, workspace } = bench;
  let panel!: Frame;

  const openPanel = async () => {
    await waitForWorkbench(p);
    await openHermesView(p);
    await resizeSidebar(p, 420);
    panel = await findPanelFrame(p);
    await waitForAttribute(panel.locator("[data-testid=connection-status]").first(), "data-status", /^ready$/, 60_000);
  };

  await step("r01-large-output", async () => {
    await p.goto(`${bench.server.url}/?folder=${encodeURIComponent(workspace)}`);
    await openPanel();
    model.enqueue({ toolCalls: [{ name: "terminal", arguments: { command: `seq 1 ${COUNT}` } }] }, { text: "Counted." });
    await send(panel, "Count to two hundred thousand");
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "Counted." }).waitFor({ timeout: 120_000 });
    await waitForIdle(panel);
    const card = panel.locator("[data-testid=tool-card]").last();
    await card.getByText(String(COUNT)).first().waitFor({ timeout: 30_000 });
    // A title other than the first prompt, so the history row shows both.
    await send(panel, "/title Counting and cleaning");
    await waitForIdle(panel);
  });

  await step("r02-question-pending", async () => {
    model.enqueue({ toolCalls: [{ name: "terminal", arguments: { command: "rm -rf build" } }] }, { text: "Removed build." });
    await send(panel, "Remove the build folder");
    const card = panel.locator("[data-testid=permission-card]").last();
    await card.locator("[data-option-kind=allow_once]").waitFor({ timeout: 60_000 });
    assert.equal(await card.getAttribute("data-outcome"), "");
  });

  await step("r03-reload-question-cancelled", async () => {
    // The window reloads while the question waits: the extension host and the agent restart, and
    // the chat is loaded again from the agent's journal.
    await runCommand(p, "Developer: Reload Window");
    await openPanel();
    const question = panel.locator("[data-testid=permission-card]").last();
    await waitForAttribute(question, "data-outcome", /^cancelled$/, 90_000);
    const outcome = (await question.locator(".outcome").textContent()) ?? "";
    assert.equal(outcome.trim(), "Cancelled: the window reloaded; the command did not run");
    assert.match((await question.textContent()) ?? "", /rm -rf build/);
    // The tool card did not vanish: it ended cancelled, not failed.
    const tool = panel.locator("[data-testid=tool-card]").filter({ hasText: "rm -rf build" }).last();
    await tool.waitFor({ timeout: 10_000 });
    assert.match((await tool.locator(".status-text").textContent()) ?? "", /^Cancelled$/);
    assert.ok(existsSync(path.join(workspace, "build")), "the command did not run");
    await question.scrollIntoViewIfNeeded();
  });

  await step("r04-show-all-after-reload", async () => {
    const card = panel.locator("[data-testid=tool-card]").filter({ hasText: `seq 1 ${COUNT}` }).last();
    await card.scrollIntoViewIfNeeded();
    const showAll = card.locator("[data-testid=show-all-output]");
    await showAll.waitFor({ timeout: 30_000 });
    await showAll.click();
    // The whole output, read-only, from its first line to its last.
    const editor = p.locator(".editor-group-container .monaco-editor").first();
    await editor.waitFor({ state: "visible", timeout: 30_000 });
    await p.locator(".tabs-container .tab").filter({ hasText: /seq 1 200000/ }).first().waitFor({ timeout: 30_000 });
    await editor.locator(".view-line").filter({ hasText: /^1$/ }).first().waitFor({ timeout: 30_000 });
    await editor.click();
    await p.keyboard.press("Control+End");
    await editor.locator(".view-line").filter({ hasText: new RegExp(`^${COUNT}$`) }).first().waitFor({ timeout: 30_000 });
  });

  await step("r05-history-rows", async () => {
    await runCommand(p, "Hermes: Show Chat History");
    const row = panel.locator("[data-testid=history-item]").filter({ hasText: "Counting and cleaning" }).first();
    await row.waitFor({ timeout: 30_000 });
    // A plain session/list row (no search): the title, the first prompt and the workspace.
    assert.match((await row.locator(".history-first-prompt").textContent()) ?? "", /^Count to two hundred thousand$/);
    assert.match((await row.locator("[data-testid=history-detail]").textContent()) ?? "", new RegExp(path.basename(workspace)));
  });
});
