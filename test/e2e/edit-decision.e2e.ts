// One decision per edit (issue 17), in the packaged .vsix in code-server: an edit in the default
// mode shows ONE card (the tool card, with the hunks to accept or reject inside it), never a
// permission card and then a review card; accepting one hunk of two writes only that hunk and
// the model reads which landed; "Reject all" reads "Rejected by you"; the keyboard still answers
// (1 for the first option, a rejection with a reason); "Open diff" opens VS Code's diff editor
// with Accept / Reject in its title bar and per change in its context menu, and after a partial
// accept it shows what landed; in accept_edits mode the held write's review is that one card.
// Screenshots: test-artifacts/e2e/e<NN>-*.png.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import type { Frame, Page } from "playwright-core";
import { send, usePanelWorkbench, waitFor, waitForAttribute, waitForCount, waitForIdle, type Locator } from "./panel-fixture";
import { findPanelFrame, openHermesView, resizeSidebar, waitForWorkbench } from "./workbench";

const NOTES = Array.from({ length: 20 }, (_, i) => `Line ${i + 1}: note number ${i + 1}`).join("\n") + "\n";
const both = (text: string, a: string, b: string) => text.replace("Line 2: note number 2\n", `${a}\n`).replace("Line 19: note number 19\n", `${b}\n`);
/** The text with its line `n` (1-based) replaced. */
const setLine = (text: string, n: number, value: string) => text.split("\n").map((line, i) => (i === n - 1 ? value : line)).join("\n");
const REASON = "Keep the notes as they are and add a summary file instead";

const bench = usePanelWorkbench({
  logPrefix: "edit-",
  prepareWorkspace: (workspace) => writeFileSync(path.join(workspace, "notes.txt"), NOTES),
});
const { step } = bench;

test("one decision per edit: one card, hunk by hunk, reject all, keyboard, Open diff with title-bar actions", async () => {
  const p = bench.page;
  const { model, workspace } = bench;
  const notes = () => readFileSync(path.join(workspace, "notes.txt"), "utf8");
  let panel!: Frame;
  /** The tool result the model got for a call id. */
  const toolResult = (id: string) =>
    JSON.stringify(model.requests.flatMap((r) => (r.body?.messages ?? []).filter((m: { role: string; tool_call_id?: string }) => m.role === "tool" && m.tool_call_id === id)));

  await step("e01-panel-open", async () => {
    await p.goto(`${bench.server.url}/?folder=${encodeURIComponent(workspace)}`);
    await waitForWorkbench(p);
    await openHermesView(p);
    await resizeSidebar(p, 560);
    panel = await findPanelFrame(p);
    await waitForAttribute(panel.locator("[data-testid=connection-status]").first(), "data-status", /^ready$/, 60_000);
  });

  let decision!: Locator;
  await step("e02-one-card-per-edit", async () => {
    model.enqueue(
      { toolCalls: [{ id: "w1", name: "write_file", arguments: { path: "notes.txt", content: both(NOTES, "Line 2: reviewed", "Line 19: CHANGED") } }] },
      { text: "I updated notes.txt as you decided." },
    );
    await send(panel, "Update the second and the second-to-last note");
    decision = await waitForDecision(panel);
    await waitForCount(decision.locator("[data-testid=review-hunk]"), 2, 30_000);
    // One card for the edit: the tool card holds the decision; no separate permission or review card.
    const turn = await cardsOfLastTurn(panel);
    assert.deepEqual(turn, ["tool-card"], `the edit shows as one card, not ${JSON.stringify(turn)}`);
    assert.equal(await panel.locator("[data-testid=review-card]").count(), 0, "no review card");
    assert.equal(notes(), NOTES, "nothing is written before the decision");
    // The options read as an edit's: accept all / reject all, each with its digit.
    await decision.locator("[data-option-kind=allow_once]").getByText("Accept all").waitFor({ timeout: 10_000 });
    await decision.locator("[data-option-kind=reject_once]").getByText("Reject all").waitFor({ timeout: 10_000 });
  });

  await step("e03-accept-one-hunk-of-two", async () => {
    const hunks = decision.locator("[data-testid=review-hunk]");
    await hunks.nth(0).locator("[data-testid=hunk-accept]").click();
    await waitForAttribute(hunks.nth(0), "data-decision", /^accepted$/, 10_000);
    assert.equal(notes(), NOTES, "one hunk decided of two: still nothing written");
    await hunks.nth(1).locator("[data-testid=hunk-reject]").click();
    const expected = both(NOTES, "Line 2: reviewed", "Line 19: note number 19");
    await waitFor(() => notes() === expected, 30_000, () => `notes.txt is not the first hunk only:\n${notes()}`);
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "as you decided" }).waitFor({ timeout: 60_000 });
    await waitForIdle(panel);
    const result = toolResult("w1");
    assert.match(result, /accepted 1 of 2 hunks/);
    assert.match(result, /Written: the change at line 2/);
    assert.match(result, /Not written \(rejected by the user\): the change at line 19/);
    const card = panel.locator("[data-testid=tool-card]").last();
    await waitForAttribute(card, "data-status", /^completed$/, 30_000);
    await card.getByText("Accepted 1 of 2 changes").waitFor({ timeout: 10_000 });
    // Still one card, now showing what landed.
    assert.deepEqual(await cardsOfLastTurn(panel), ["tool-card"]);
    assert.equal(await panel.locator("[data-testid=review-card]").count(), 0, "no review card after the decision either");
  });

  await step("e04-reject-all", async () => {
    const before = notes();
    model.enqueue({ toolCalls: [{ id: "p1", name: "patch", arguments: { path: "notes.txt", old_string: "Line 5: note number 5", new_string: "Line 5: gone" } }] }, { text: "Left it alone." });
    await send(panel, "Rewrite note 5");
    decision = await waitForDecision(panel);
    await decision.locator("[data-option-kind=reject_once]").click();
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "Left it alone." }).waitFor({ timeout: 60_000 });
    await waitForIdle(panel);
    assert.equal(notes(), before, "a rejected edit writes nothing");
    const card = panel.locator("[data-testid=tool-card]").last();
    await card.getByText("Rejected by you").first().waitFor({ timeout: 10_000 });
    assert.equal(await card.getAttribute("data-rejected"), "true");
    assert.match(toolResult("p1"), /The user denied editing notes\.txt/);
  });

  await step("e05-keyboard-1-accepts", async () => {
    model.enqueue({ toolCalls: [{ id: "p2", name: "patch", arguments: { path: "notes.txt", old_string: "Line 7: note number 7", new_string: "Line 7: by keyboard" } }] }, { text: "Done by keyboard." });
    await send(panel, "Change note 7");
    decision = await waitForDecision(panel);
    await panel.locator(".transcript").focus();
    await p.keyboard.press("1");
    await waitFor(() => notes().includes("Line 7: by keyboard"), 30_000, "1 did not accept the edit");
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "Done by keyboard." }).waitFor({ timeout: 60_000 });
    await waitForIdle(panel);
  });

  await step("e06-deny-with-reason", async () => {
    const before = notes();
    model.enqueue({ toolCalls: [{ id: "p3", name: "patch", arguments: { path: "notes.txt", old_string: "Line 9: note number 9", new_string: "Line 9: no" } }] }, { text: "I will add a summary file." });
    await send(panel, "Change note 9");
    decision = await waitForDecision(panel);
    await decision.locator("[data-testid=reject-with-reason]").click();
    const reason = decision.locator("[data-testid=reject-reason]");
    await reason.pressSequentially(REASON);
    await reason.press("Enter");
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "summary file" }).waitFor({ timeout: 60_000 });
    await waitForIdle(panel);
    assert.equal(notes(), before);
    assert.match(toolResult("p3"), new RegExp(`The user rejected this: ${REASON}`));
    await panel.locator("[data-testid=tool-card]").last().getByText(REASON).first().waitFor({ timeout: 10_000 });
  });

  await step("e07-open-diff-title-bar", async () => {
    model.enqueue(
      { toolCalls: [{ id: "w2", name: "write_file", arguments: { path: "notes.txt", content: setLine(setLine(notes(), 3, "Line 3: from the diff editor"), 18, "Line 18: refused in the diff editor") } }] },
      { text: "Applied what you accepted in the diff editor." },
    );
    await send(panel, "Change notes 3 and 18");
    decision = await waitForDecision(panel);
    await waitForCount(decision.locator("[data-testid=review-hunk]"), 2, 30_000);
    await decision.locator("[data-testid=edit-open-diff]").click();
    await p.locator(".monaco-diff-editor").first().waitFor({ state: "visible", timeout: 30_000 });
    await p.locator(".monaco-diff-editor .editor.modified .view-line").filter({ hasText: "refused in the diff editor" }).first().waitFor({ timeout: 30_000 });
    await titleAction(p, "Accept Edit").waitFor({ state: "visible", timeout: 30_000 });
    await titleAction(p, "Reject Edit").waitFor({ state: "visible", timeout: 10_000 });
  });

  await step("e08-diff-editor-reject-one-change", async () => {
    // The cursor on the second change, its context menu: "Reject This Change".
    const modified = p.locator(".monaco-diff-editor .editor.modified");
    const line = modified.locator(".view-line").filter({ hasText: "refused in the diff editor" }).first();
    await line.waitFor({ state: "visible", timeout: 30_000 });
    await line.click();
    await line.click({ button: "right" });
    const item = p.locator(".context-view .action-item, .monaco-menu .action-item").filter({ hasText: "Reject This Change" }).first();
    await item.waitFor({ state: "visible", timeout: 15_000 });
    await bench.shot("e08a-diff-editor-context-menu");
    await item.click();
    await waitForAttribute(decision.locator("[data-testid=review-hunk]").nth(1), "data-decision", /^rejected$/, 15_000);
  });

  await step("e09-diff-editor-accept-shows-landed", async () => {
    const before = notes();
    await titleAction(p, "Accept Edit").click();
    const expected = setLine(before, 3, "Line 3: from the diff editor");
    await waitFor(() => notes() === expected, 30_000, () => `notes.txt after the diff editor's accept:\n${notes()}`);
    // The proposal's tab now compares the file as it was with what landed.
    await p.locator(".tabs-container .tab").filter({ hasText: "applied (1 of 2 changes)" }).first().waitFor({ state: "visible", timeout: 30_000 });
    const modified = p.locator(".monaco-diff-editor .editor.modified");
    await modified.locator(".view-line").filter({ hasText: "from the diff editor" }).first().waitFor({ timeout: 15_000 });
    assert.equal(await modified.locator(".view-line").filter({ hasText: "refused in the diff editor" }).count(), 0, "the rejected change is not on the landed side");
    assert.equal(await titleAction(p, "Accept Edit").count(), 0, "no accept action once decided");
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "in the diff editor" }).waitFor({ timeout: 60_000 });
    await waitForIdle(panel);
    assert.match(toolResult("w2"), /Not written \(rejected by the user\): the change at line 18/);
  });

  await step("e10-accept-edits-mode-one-card", async () => {
    // No permission in accept_edits: the held write's review is the edit's one decision, inside its card.
    await panel.locator("[data-testid=mode-picker]").selectOption("accept_edits");
    const before = notes();
    model.enqueue(
      { toolCalls: [{ id: "w3", name: "write_file", arguments: { path: "notes.txt", content: setLine(setLine(before, 4, "Line 4: kept"), 17, "Line 17: dropped") } }] },
      { text: "Wrote the part you kept." },
    );
    await send(panel, "Change notes 4 and 17");
    const review = panel.locator("[data-testid=tool-card] [data-testid=review-card][data-embedded=true][data-status=pending]").last();
    await review.waitFor({ state: "visible", timeout: 60_000 });
    assert.deepEqual(await cardsOfLastTurn(panel), ["tool-card"], "one card for the edit");
    const hunks = review.locator("[data-testid=review-hunk]");
    await waitForCount(hunks, 2, 30_000);
    await hunks.nth(0).locator("[data-testid=hunk-accept]").click();
    await waitForAttribute(hunks.nth(0), "data-decision", /^accepted$/, 10_000);
    await hunks.nth(1).locator("[data-testid=hunk-reject]").click();
    await waitFor(() => notes() === setLine(before, 4, "Line 4: kept"), 30_000, () => `notes.txt in accept_edits:\n${notes()}`);
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "the part you kept" }).waitFor({ timeout: 60_000 });
    await waitForIdle(panel);
    assert.match(toolResult("w3"), /Not written \(rejected by the user\): the change at line 17/);
    assert.deepEqual(await cardsOfLastTurn(panel), ["tool-card"]);
  });
});

/** The decision inside the newest edit's tool card. */
async function waitForDecision(panel: Frame): Promise<Locator> {
  const decision = panel.locator("[data-testid=tool-card] [data-testid=permission-card][data-embedded=true][data-outcome='']").last();
  await decision.waitFor({ state: "visible", timeout: 60_000 });
  return decision;
}

/** The cards (tool, permission, review) after the last user message, by their test id. */
async function cardsOfLastTurn(panel: Frame): Promise<string[]> {
  return panel.locator(".transcript").evaluate((root) => {
    const items = [...root.querySelectorAll("[data-item-id]")];
    const lastUser = items.map((el) => !!el.querySelector("[data-testid=msg-user]")).lastIndexOf(true);
    return items
      .slice(lastUser + 1)
      .flatMap((el) => [...el.querySelectorAll(":scope > [data-testid=tool-card], :scope > [data-testid=permission-card], :scope > [data-testid=review-card]")])
      .filter((el) => (el as unknown as { offsetParent: unknown }).offsetParent !== null)
      .map((el) => el.getAttribute("data-testid") ?? "");
  });
}

/** An action in the active editor's title bar, by its label. */
function titleAction(page: Page, label: string): Locator {
  return page.locator(`.editor-actions .action-label[aria-label^="${label}"]`);
}
