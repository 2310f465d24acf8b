// Issue 17's leftovers in the packaged .vsix in code-server: a command running when the user
// presses Stop reads "Cancelled", not "Failed"; Restart Agent while the clarify tool's question
// is open closes it as cut short (never as the user's answer), live and after the reload; an
// editor terminal's whole output is spilled under hermes-terminal-output/ and "Show all" has it.
// One screenshot per item in test-artifacts/e2e/, named l<NN>-<item>.
import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import type { Frame } from "playwright-core";
import { send, usePanelWorkbench, waitFor, waitForAttribute, waitForIdle } from "./panel-fixture";
import { findPanelFrame, openHermesView, resizeSidebar, runCommand, waitForWorkbench } from "./workbench";

const bench = usePanelWorkbench({ logPrefix: "longchat-", settings: { "hermes.defaultMode": "dont_ask" } });
const { step } = bench;

test("stop, restart and spilled output read as what happened", async () => {
  const p = bench.page;
  const { model, workspace } = bench;
  let panel!: Frame;

  await step("l01-stop-cancels-running-command", async () => {
    await p.goto(`${bench.server.url}/?folder=${encodeURIComponent(workspace)}`);
    await waitForWorkbench(p);
    await openHermesView(p);
    await resizeSidebar(p, 420);
    panel = await findPanelFrame(p);
    await waitForAttribute(panel.locator("[data-testid=connection-status]").first(), "data-status", /^ready$/, 60_000);
    model.enqueue({ text: "Running it.", toolCalls: [{ id: "long1", name: "terminal", arguments: { command: "sleep 60" } }] });
    await send(panel, "Run the long job");
    const card = panel.locator("[data-testid=tool-card]").filter({ hasText: "sleep 60" }).last();
    await waitForAttribute(card, "data-status", /^in_progress$/, 60_000);
    await panel.locator("[data-testid=stop]").click();
    await waitForIdle(panel);
    await card.locator(".status-text").filter({ hasText: "Cancelled" }).waitFor({ timeout: 30_000 });
    assert.equal(await card.locator(".status-text").textContent(), "Cancelled", "stopped by the user, not a failure");
    await panel.locator("[data-testid=stopped-marker]").last().waitFor({ timeout: 10_000 });
  });

  await step("l02-restart-while-question-open", async () => {
    model.enqueue({ toolCalls: [{ id: "ask1", name: "clarify", arguments: { question: "Which database should I use?", choices: [{ label: "Postgres" }, { label: "SQLite" }] } }] });
    await send(panel, "Set up the database");
    const question = panel.locator("[data-testid=question-card]").filter({ hasText: "Which database" }).last();
    await question.locator("[data-testid=question-choice]").first().waitFor({ timeout: 60_000 });
    await runCommand(p, "Hermes: Restart Agent");
    await waitForAttribute(panel.locator("[data-testid=connection-status]").first(), "data-status", /^ready$/, 90_000);
    // After the restart the session is reloaded: the question comes back from the journal, cut short.
    const outcome = panel.locator("[data-testid=question-card]").filter({ hasText: "Which database" }).last().locator("[data-testid=question-outcome]");
    await outcome.waitFor({ timeout: 60_000 });
    let text = "";
    await waitFor(async () => /^Cancelled: /.test((text = (await outcome.textContent()) ?? "")), 30_000, () => `the question says ${JSON.stringify(text)}`);
    assert.doesNotMatch(text, /You answered|Skipped/, "not the user's decision");
  });

  await step("l03-spilled-output-kept", async () => {
    model.enqueue({ toolCalls: [{ id: "big1", name: "terminal", arguments: { command: "seq 1 300000" } }] }, { text: "Printed them." });
    await send(panel, "Print many numbers");
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "Printed them" }).waitFor({ timeout: 120_000 });
    await waitForIdle(panel);
    const root = path.join(os.tmpdir(), "hermes-terminal-output");
    let files: string[] = [];
    await waitFor(
      () => existsSync(root) && (files = readdirSync(root, { recursive: true }).map(String).filter((f) => f.endsWith(".log"))).length > 0,
      30_000,
      () => `no spill under ${root}`,
    );
    assert.ok(files.length > 0, "the whole output is spilled under the OS temp folder's hermes-terminal-output/");
  });
});
