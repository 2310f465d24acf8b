// The agent asks and the user steers, in the packaged .vsix in code-server (issue 19): the
// clarify tool's question as a card answered with a number key, and "Steer" in the composer
// during a running turn (the note reaches the model's next request and shows where it was
// applied). One screenshot per item in test-artifacts/e2e/, named a<NN>-<item>.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import type { Frame } from "playwright-core";
import { send, usePanelWorkbench, waitForAttribute, waitForIdle } from "./panel-fixture";
import { findPanelFrame, openHermesView, resizeSidebar, waitForWorkbench } from "./workbench";

const bench = usePanelWorkbench({
  logPrefix: "ask-steer-",
  prepareWorkspace: (workspace) => writeFileSync(path.join(workspace, "notes.txt"), "alpha\n"),
});
const { step } = bench;

test("clarify as a card answered by number key; steering a running turn from the composer", async () => {
  const p = bench.page;
  const { model, workspace } = bench;
  let panel!: Frame;

  await step("a01-question-card", async () => {
    await p.goto(`${bench.server.url}/?folder=${encodeURIComponent(workspace)}`);
    await waitForWorkbench(p);
    await openHermesView(p);
    await resizeSidebar(p, 420);
    panel = await findPanelFrame(p);
    await waitForAttribute(panel.locator("[data-testid=connection-status]").first(), "data-status", /^ready$/, 60_000);
    const choices = [
      { label: "Keep it", description: "Leave notes.txt as it is" },
      { label: "Rewrite it", description: "Replace it with a summary" },
      { label: "Delete it" },
    ];
    model.enqueue({ toolCalls: [{ id: "ask1", name: "clarify", arguments: { question: "What should I do with notes.txt?", choices } }] }, { text: "Rewriting it, as you asked." });
    await send(panel, "Tidy up the notes");
    const card = panel.locator("[data-testid=question-card]").last();
    await card.locator("[data-testid=question-choice]").nth(2).waitFor({ timeout: 60_000 });
    assert.match((await card.textContent()) ?? "", /What should I do with notes\.txt\?/);
    assert.match((await card.textContent()) ?? "", /Replace it with a summary/, "each choice shows its description");
  });

  await step("a02-question-answered-by-key", async () => {
    const card = panel.locator("[data-testid=question-card]").last();
    await panel.locator(".transcript").focus();
    await p.keyboard.press("2");
    await waitForAttribute(card, "data-outcome", /^answered$/, 15_000);
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "Rewriting it, as you asked." }).waitFor({ timeout: 60_000 });
    await waitForIdle(panel);
    assert.match((await card.textContent()) ?? "", /You answered: Rewrite it/);
    const result = model.requests.at(-1)!.body.messages.find((m: any) => m.role === "tool" && m.tool_call_id === "ask1");
    assert.deepEqual(JSON.parse(result.content), { answered: true, answer: "Rewrite it" });
  });

  await step("a03-steer-during-turn", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    model.enqueue(
      { handler: async () => (await gate, { toolCalls: [{ id: "read1", name: "read_file", arguments: { path: "notes.txt" } }] }) },
      { text: "Done: kept it short." },
    );
    const before = model.requests.length;
    await send(panel, "Summarize notes.txt");
    await model.waitForRequests(before + 1, 60_000);
    const composer = panel.locator("[data-testid=composer]");
    await composer.click();
    await composer.fill("keep the summary to one line");
    const steer = panel.locator("[data-testid=steer]");
    await steer.waitFor({ timeout: 15_000 });
    await bench.shot("a03a-composer-offers-steer-and-queue");
    await steer.click();
    assert.equal(await composer.inputValue(), "", "the composer is cleared");
    assert.equal(await panel.locator("[data-testid=queued-prompt]").count(), 0, "steered, not queued");
    release();
    await panel.locator("[data-testid=steer-note]").filter({ hasText: "keep the summary to one line" }).waitFor({ timeout: 60_000 });
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "Done: kept it short." }).waitFor({ timeout: 60_000 });
    await waitForIdle(panel);
    const messages = model.requests.at(-1)!.body.messages as any[];
    const note = messages.findIndex((m) => m.role === "user" && JSON.stringify(m.content).includes("keep the summary to one line"));
    assert.ok(note > 0 && messages[note - 1].role === "tool", "the note reached the model after the tool result");
  });
});
