// The panel as a user lives in it (issue 17), in the packaged .vsix in code-server: keyboard
// and focus, confirmations, answering permissions from the keyboard (and rejecting with a
// reason the model reads), what the cards say, the layout of a 300 px side bar, long chats and
// a clean extension host log; stop/interrupt markers replayed after a crash, the usage meter at
// once, history search by content. One screenshot per item in test-artifacts/e2e/, named u<NN>-<item>.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import type { Frame, Page } from "playwright-core";
import { agentProcesses, extensionHostLog, send, usePanelWorkbench, waitFor, waitForAttribute, waitForIdle } from "./panel-fixture";
import { findPanelFrame, openHermesView, resizeSidebar, runCommand, waitForWorkbench } from "./workbench";

const APP_JS = ["// The app's entry point", "export function main() {", '  console.log("hello");', "}", ""].join("\n");
const REASON = "Do not delete it: run npm run clean instead";

const bench = usePanelWorkbench({
  logPrefix: "usability-",
  prepareWorkspace: (workspace) => {
    writeFileSync(path.join(workspace, "app.js"), APP_JS);
    writeFileSync(path.join(workspace, "README.md"), "# Demo\n");
    for (const dir of ["build", "cache", "dist-old"]) mkdirSync(path.join(workspace, dir), { recursive: true });
  },
});
const { step } = bench;

test("the panel as a user lives in it: focus, keyboard, confirmations, wording, layout, long chats", async () => {
  const p = bench.page;
  const { model, workspace, hermesHome } = bench;
  let panel!: Frame;

  await step("u01-focus-composer", async () => {
    await p.goto(`${bench.server.url}/?folder=${encodeURIComponent(workspace)}`);
    await waitForWorkbench(p);
    await openHermesView(p);
    await resizeSidebar(p, 420);
    panel = await findPanelFrame(p);
    await waitForAttribute(panel.locator("[data-testid=connection-status]").first(), "data-status", /^ready$/, 60_000);
    // Focus elsewhere (the explorer), then the keybinding: typed text lands in the composer.
    await p.locator(".activitybar [aria-label^='Explorer']").first().click();
    await p.keyboard.press("Control+Alt+H");
    await typeUntilComposer(p, panel, "typed after Ctrl+Alt+H");
    await clearComposer(panel);
    // The "Focus on Chat View" command does the same.
    await runCommand(p, "Hermes: Focus on Chat View");
    await typeUntilComposer(p, panel, "typed after Focus on Chat View");
  });

  await step("u02-header-actions-once", async () => {
    // New chat and History are the view's native title-bar actions, not repeated in the panel.
    assert.equal(await panel.locator("[data-testid=new-chat], [data-testid=history-button]").count(), 0);
    await p.locator(".part.sidebar .composite.title").first().hover({ force: true });
    const actions = p.locator(".part.sidebar .action-label");
    const labels = () => actions.evaluateAll((els) => els.map((e) => `${e.getAttribute("aria-label") ?? ""} ${e.getAttribute("title") ?? ""}`));
    await waitFor(async () => (await labels()).some((l) => /New Chat/.test(l)) && (await labels()).some((l) => /History/.test(l)), 15_000, "no New Chat / History title actions");
    // New Chat puts the caret in the composer of the new chat.
    await clearComposer(panel);
    await runCommand(p, "Hermes: New Chat");
    await typeUntilComposer(p, panel, "typed after New Chat");
    await clearComposer(panel);
  });

  await step("u03-accessibility", async () => {
    model.enqueue({ text: "Hi! I am **Hermes**." });
    await send(panel, "Hello there");
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "I am Hermes" }).waitFor({ timeout: 60_000 });
    await waitForIdle(panel);
    assert.equal(await panel.locator("[role=log][aria-label=Conversation]").count(), 1, "the transcript is a log landmark");
    assert.equal(await panel.locator("[data-testid=msg-user] .sr-only").first().textContent(), "You said:");
    assert.equal(await panel.locator("[data-testid=msg-agent] .sr-only").first().textContent(), "Hermes said:");
  });

  await step("u04-mention-keeps-word", async () => {
    const composer = panel.locator("[data-testid=composer]");
    await composer.click();
    await composer.pressSequentially("Look at @app");
    await panel.locator("[role=listbox] [role=option]").filter({ hasText: "app.js" }).first().waitFor({ timeout: 30_000 });
    await composer.press("Enter");
    let held = "";
    await waitFor(async () => (held = await composer.inputValue()) === "Look at @app.js ", 10_000, () => `composer holds ${JSON.stringify(held)}`);
    await panel.locator(".composer-chips").getByText("app.js").waitFor({ timeout: 10_000 });
    await bench.shot("u04-mention-keeps-word-typed");
    await clearComposer(panel);
    // Drop the chip: the next prompts go without the file.
    await panel.locator(".composer-chips .chip-remove").first().click();
    await panel.locator(".composer-chips").waitFor({ state: "detached", timeout: 10_000 });
  });

  await step("u05-permission-keys", async () => {
    model.enqueue({ toolCalls: [{ name: "terminal", arguments: { command: "rm -rf build" } }] }, { text: "Removed build." });
    await send(panel, "Remove the build folder");
    const card = panel.locator("[data-testid=permission-card]").last();
    await card.locator("[data-option-kind=allow_once]").waitFor({ timeout: 60_000 });
    // A digit typed in the composer is text, not an answer.
    const composer = panel.locator("[data-testid=composer]");
    await composer.click();
    await p.keyboard.press("1");
    assert.equal(await composer.inputValue(), "1");
    assert.equal(await card.getAttribute("data-outcome"), "", "typing did not answer");
    await clearComposer(panel);
    // Focus in the panel but not in a text field, one card waiting: 1 answers with the first option.
    await panel.locator(".transcript").focus();
    await p.keyboard.press("1");
    await waitForAttribute(card, "data-outcome", /^allow_once$/, 10_000);
    await waitFor(() => !existsSync(path.join(workspace, "build")), 30_000, "build/ was not removed");
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "Removed build." }).waitFor({ timeout: 60_000 });
    await waitForIdle(panel);
  });

  await step("u06-reject-with-reason", async () => {
    // A right-to-left override in the command (it would show the comment's letters reversed): the card shows it, it reorders nothing.
    model.enqueue({ toolCalls: [{ id: "rej1", name: "terminal", arguments: { command: "rm -rf cache # \u202Egnp.tpircs" } }] }, { text: "Understood, I will run npm run clean." });
    await send(panel, "Remove the cache folder");
    const card = panel.locator("[data-testid=permission-card]").last();
    await card.locator("[data-testid=reject-with-reason]").waitFor({ timeout: 60_000 });
    const shownTitle = (await card.locator(".permission-title").textContent()) ?? "";
    assert.ok(shownTitle.includes("<U+202E>gnp.tpircs") && !shownTitle.includes("\u202E"), `the override shows as text: ${JSON.stringify(shownTitle)}`);
    await card.locator("[data-testid=reject-with-reason]").click();
    const reason = card.locator("[data-testid=reject-reason]");
    await reason.waitFor({ timeout: 10_000 });
    // Digits typed in the reason are text too.
    await reason.pressSequentially(REASON);
    await reason.press("Enter");
    await waitForAttribute(card, "data-outcome", /^reject_once$/, 10_000);
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "npm run clean" }).waitFor({ timeout: 60_000 });
    await waitForIdle(panel);
    assert.ok(existsSync(path.join(workspace, "cache")), "nothing ran");
    const toolResults = model.requests.flatMap((r) => (r.body?.messages ?? []).filter((m: { role: string; tool_call_id?: string }) => m.role === "tool" && m.tool_call_id === "rej1"));
    assert.ok(toolResults.some((m: { content: unknown }) => JSON.stringify(m.content).includes(`The user rejected this: ${REASON}`)), "the model read the user's reason");
    // The card reads as the user's decision, not as a failure.
    const tool = panel.locator("[data-testid=tool-card][data-rejected=true]").last();
    await tool.getByText("Rejected by you").waitFor({ timeout: 10_000 });
    await card.getByText(REASON).waitFor({ timeout: 10_000 });
  });

  await step("u07-layout-300px", async () => {
    await resizeSidebar(p, 300);
    const table = ["| Name | Kind | Description |", "| --- | --- | --- |", "| app.js | module | The application entry point with its main function |", "| README.md | docs | What the project is |"].join("\n");
    model.enqueue({ text: `Here is the workspace:\n\n${table}\n` }, { toolCalls: [{ name: "terminal", arguments: { command: "rm -rf dist-old" } }] }, { text: "Done." });
    await send(panel, "Describe the workspace");
    await panel.locator("[data-testid=msg-agent] table").last().waitFor({ timeout: 60_000 });
    await waitForIdle(panel);
    await send(panel, "Remove dist-old");
    const card = panel.locator("[data-testid=permission-card]").last();
    await card.locator("[data-option-kind=allow_once]").waitFor({ timeout: 60_000 });
    // Every option button lies inside the card (they wrap instead of overflowing).
    const overflow = await card.evaluate((el) => {
      const box = el.getBoundingClientRect();
      return [...el.querySelectorAll("button")].filter((b) => b.getBoundingClientRect().right > box.right + 1).map((b) => b.textContent);
    });
    assert.deepEqual(overflow, [], "permission buttons overflow the 300 px side bar");
    // Narrow table columns keep whole words: "Description" is on one line.
    const heading = await panel.locator("[data-testid=msg-agent] table th").filter({ hasText: "Description" }).last().evaluate(LINES_OF_TEXT);
    assert.equal(heading.lines, 1, "a table heading broke letter by letter");
    await bench.shot("u07-layout-300px-permission");
    await card.locator("[data-option-kind=allow_once]").click();
    await waitForIdle(panel);
    await resizeSidebar(p, 420);
  });

  await step("u08-read-file-card", async () => {
    model.enqueue({ toolCalls: [{ name: "read_file", arguments: { path: "app.js" } }] }, { text: "It prints hello." });
    await send(panel, "What does app.js do?");
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "It prints hello." }).waitFor({ timeout: 60_000 });
    await waitForIdle(panel);
    const card = panel.locator("[data-testid=tool-card][data-kind=read]").last();
    await card.locator(".tool-title").click(); // read cards start folded
    const text = (await card.locator(".output-text").textContent()) ?? "";
    assert.match(text, /export function main\(\) \{\n {2}console\.log\("hello"\);/, "the card shows the file's text");
    assert.doesNotMatch(text, /\\n|"content":/, "not the JSON the model read");
  });

  await step("u09-show-all-output", async () => {
    model.enqueue({ toolCalls: [{ name: "terminal", arguments: { command: "seq 1 3000" } }] }, { text: "Counted." });
    await send(panel, "Count to 3000");
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "Counted." }).waitFor({ timeout: 60_000 });
    await waitForIdle(panel);
    const card = panel.locator("[data-testid=tool-card]").last();
    await card.getByText("3000").first().waitFor({ timeout: 30_000 });
    await card.locator("[data-testid=show-all-output]").click();
    // The whole output, from its first line, in a read-only editor.
    const editor = p.locator(".editor-group-container .monaco-editor").first();
    await editor.waitFor({ state: "visible", timeout: 30_000 });
    await p.locator(".tabs-container .tab").filter({ hasText: /seq 1 3000/ }).first().waitFor({ timeout: 30_000 });
    await editor.locator(".view-line").filter({ hasText: /^1$/ }).first().waitFor({ timeout: 30_000 });
    const spilled = readdirSync(path.join(tmpRoot(), ...[])).filter((name) => name.startsWith("hermes-"));
    assert.ok(spilled.length > 0, "the full output was spilled under the OS temp folder");
  });

  await step("u10-plan-stops", async () => {
    model.enqueue(
      { toolCalls: [{ name: "todo", arguments: { todos: [{ id: "1", content: "Read the code", status: "completed" }, { id: "2", content: "Write the fix", status: "in_progress" }] } }] },
      { text: "I stopped before writing the fix." },
    );
    await send(panel, "Plan the fix");
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "I stopped before" }).waitFor({ timeout: 60_000 });
    await waitForIdle(panel);
    const entry = panel.locator(".plan-entry").filter({ hasText: "Write the fix" });
    await waitForAttribute(entry, "data-status", /^unfinished$/, 10_000);
    assert.equal(await panel.locator(".plan .spinner").count(), 0, "the plan no longer spins");
    await entry.getByText("not finished").waitFor({ timeout: 5_000 });
  });

  await step("u11-stopped-marker", async () => {
    model.enqueue({ text: "Working on a long answer", hang: true });
    await send(panel, "Write a long answer");
    // The agent holds back a reply's last word until the next chunk (redaction across chunks): the rest shows.
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "Working on a long" }).waitFor({ timeout: 60_000 });
    await panel.locator("[data-testid=stop]").click();
    await waitForIdle(panel);
    await panel.locator("[data-testid=stopped-marker]").last().waitFor({ timeout: 10_000 });
  });

  await step("u16-markers-replayed-after-crash", async () => {
    // A turn cut by the agent's death: after the automatic restart and reload, the replayed
    // journal ends it with "Interrupted", the earlier stopped turn keeps its "Stopped" marker
    // (journaled, replayed by session/load), and the usage meter shows at once (usage_update on load).
    model.enqueue({ text: "Half of an answer that never ends", hang: true });
    await send(panel, "Start something long");
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "Half of an answer" }).waitFor({ timeout: 60_000 });
    const agents = agentProcesses(hermesHome).filter(({ command }) => /hermes\.js\b.*\bacp\b/.test(command));
    assert.equal(agents.length, 1, `one agent process, found: ${agents.map((a) => a.command).join("; ")}`);
    process.kill(agents[0]!.pid, "SIGKILL");
    const interrupted = panel.locator("[data-testid=interrupted-marker]");
    await interrupted.last().waitFor({ timeout: 90_000 });
    await waitForAttribute(panel.locator("[data-testid=connection-status]").first(), "data-status", /^ready$/, 60_000);
    assert.match((await interrupted.last().textContent()) ?? "", /Interrupted: the agent stopped \(.+\)/);
    assert.equal(await interrupted.count(), 1, "one interrupted turn");
    assert.ok((await panel.locator("[data-testid=stopped-marker]").count()) >= 1, "the stopped turn (u11) is still marked after the reload");
    await panel.locator("[data-testid=usage-meter]").first().waitFor({ state: "visible", timeout: 10_000 });
    await interrupted.last().scrollIntoViewIfNeeded();
  });

  await step("u12-jump-to-latest", async () => {
    const long = Array.from({ length: 80 }, (_, i) => `Paragraph ${i + 1} of a long answer.`).join("\n\n");
    model.enqueue({ text: long });
    await send(panel, "Give me a long answer");
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "Paragraph 80 of" }).waitFor({ timeout: 60_000 });
    await waitForIdle(panel);
    await panel.locator(".transcript").evaluate((el) => el.scrollTo({ top: 0 }));
    const jump = panel.locator("[data-testid=jump-latest]");
    await jump.waitFor({ state: "visible", timeout: 10_000 });
    await bench.shot("u12-jump-to-latest-shown");
    await jump.click();
    await waitFor(() => panel.locator(".transcript").evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight <= 2), 10_000, "not at the bottom after Jump to latest");
    await jump.waitFor({ state: "hidden", timeout: 10_000 });
  });

  await step("u13-fork-confirm", async () => {
    const before = sessionFiles(hermesHome).length;
    const first = panel.locator("[data-testid=msg-user]").first();
    await panel.locator(".transcript").evaluate((el) => el.scrollTo({ top: 0 }));
    await first.hover();
    const fork = first.locator("[data-testid=fork]");
    await fork.focus();
    // Enter held down: the first press asks, the auto-repeats do nothing.
    await p.keyboard.down("Enter");
    await p.keyboard.down("Enter");
    await p.keyboard.down("Enter");
    await p.keyboard.up("Enter");
    const confirm = panel.locator("[data-testid=fork-confirm]");
    await confirm.waitFor({ state: "visible", timeout: 10_000 });
    assert.equal(sessionFiles(hermesHome).length, before, "nothing forked before the confirmation");
    await bench.shot("u13-fork-confirm-asked");
    // Escape backs out; then Fork → Fork forks once.
    await p.keyboard.press("Escape");
    await confirm.waitFor({ state: "hidden", timeout: 10_000 });
    await fork.click();
    await confirm.locator("[data-testid=confirm-yes]").click();
    await waitFor(() => sessionFiles(hermesHome).length === before + 1, 30_000, () => `expected one new session, found ${sessionFiles(hermesHome).length - before}`);
    await panel.locator("[data-testid=msg-user]").first().waitFor({ timeout: 30_000 });
    await panel.locator("[data-testid=composer]").waitFor({ timeout: 30_000 });
    assert.equal(sessionFiles(hermesHome).length, before + 1, "exactly one fork");
  });

  await step("u17-history-search-content", async () => {
    // "Paragraph 80" is in an answer, not in any title: the agent's full-text search finds it,
    // and the row shows the first prompt, the workspace and the matching snippet.
    await runCommand(p, "Hermes: Show Chat History");
    const rows = panel.locator("[data-testid=history-item]");
    await rows.first().waitFor({ timeout: 30_000 });
    await panel.locator("[data-testid=history-search]").fill("Paragraph");
    const hit = rows.filter({ has: panel.locator("[data-testid=history-snippet]") }).first();
    await hit.waitFor({ timeout: 30_000 });
    assert.match((await hit.locator("[data-testid=history-snippet] mark").first().textContent()) ?? "", /Paragraph/i);
    assert.match((await hit.locator("[data-testid=history-detail]").textContent()) ?? "", new RegExp(path.basename(workspace).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
    // Its first prompt is its title here ("Hello there", the first line): the row does not repeat it.
    assert.match((await hit.locator(".history-title").textContent()) ?? "", /Hello there/, "a title that does not contain the word");
    await bench.shot("u17-history-search-hits");
    await panel.locator("[data-testid=history-search]").fill("");
    await panel.locator("[data-testid=history-back]").click();
  });

  await step("u14-history-delete-confirm", async () => {
    await runCommand(p, "Hermes: Show Chat History");
    const rows = panel.locator("[data-testid=history-item]");
    await rows.first().waitFor({ timeout: 30_000 });
    const count = await rows.count();
    const row = rows.last();
    await row.hover();
    await row.locator("[data-testid=history-delete]").click();
    const confirm = row.locator("[data-testid=delete-confirm]");
    await confirm.waitFor({ timeout: 10_000 });
    await bench.shot("u14-history-delete-asked");
    await confirm.locator("[data-testid=confirm-no]").click();
    assert.equal(await rows.count(), count, "Cancel deletes nothing");
    await row.hover();
    await row.locator("[data-testid=history-delete]").click();
    await row.locator("[data-testid=confirm-yes]").click();
    await waitFor(async () => (await rows.count()) === count - 1, 30_000, "the chat was not deleted");
    await panel.locator("[data-testid=history-back]").click();
  });

  await step("u15-extension-host-log-clean", async () => {
    const log = extensionHostLog(bench.userDataDir);
    assert.ok(log.length > 0, "the extension host log was found");
    assert.doesNotMatch(log, /PendingMigrationError/, "the extension host logged PendingMigrationError");
  });
});

/** Types `text` (into whatever has focus) and checks it landed in the composer, whole. */
async function typeUntilComposer(page: Page, panel: Frame, text: string): Promise<void> {
  const composer = panel.locator("[data-testid=composer]");
  await waitFor(() => composer.evaluate(HAS_CARET), 15_000, "the composer did not get the caret");
  await page.keyboard.type(text);
  let held = "";
  await waitFor(async () => (held = await composer.inputValue()) === text, 10_000, () => `the composer holds ${JSON.stringify(held)}, expected ${JSON.stringify(text)}`);
}

async function clearComposer(panel: Frame): Promise<void> {
  await panel.locator("[data-testid=composer]").fill("");
}

// In the page (the DOM is not in this file's types). Fixed source text, not eval of input.
/* eslint-disable @typescript-eslint/no-implied-eval */
const HAS_CARET = new Function("el", "return el === el.ownerDocument.activeElement && el.ownerDocument.hasFocus()") as (el: unknown) => boolean;
const LINES_OF_TEXT = new Function(
  "el",
  `const lineHeight = parseFloat(getComputedStyle(el).lineHeight) || 18;
   const range = el.ownerDocument.createRange();
   range.selectNodeContents(el);
   return { lines: Math.round(range.getBoundingClientRect().height / lineHeight) };`,
) as (el: unknown) => { lines: number };
/* eslint-enable @typescript-eslint/no-implied-eval */

function sessionFiles(home: string): string[] {
  const dir = path.join(home, "sessions");
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith(".jsonl")) : [];
}

function tmpRoot(): string {
  return process.env.TMPDIR ?? "/tmp";
}
