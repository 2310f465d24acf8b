// What Hermes learns and knows, in the packaged .vsix in code-server (issue 20): the background
// review announces "Learned: …" as a card whose Undo takes the memory entry back; "What Hermes
// knows" (the command palette) shows the memory files written by hand, entry by entry, and a
// skill's stats; an entry is edited, one deleted, the file reverted; the next session's prompt
// and /memory have what the view left. One screenshot per item in test-artifacts/e2e/, k<NN>-….
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import type { Frame } from "playwright-core";
import { REVIEW_MARK } from "../../acp-server/learning/review";
import type { RecordedRequest, ScriptedReply } from "../support/scripted-model";
import { send, usePanelWorkbench, waitFor, waitForAttribute, waitForCount, waitForIdle } from "./panel-fixture";
import { findPanelFrame, openHermesView, resizeSidebar, runCommand, waitForWorkbench } from "./workbench";

const bench = usePanelWorkbench({
  logPrefix: "knowledge-",
  prepareWorkspace: (workspace) => writeFileSync(path.join(workspace, "server.conf"), "port = 8080\n"),
  hermesConfig: (url) => ({
    model: { provider: "custom", name: "fake-model", base_url: url, api_key: "sk-test-not-a-real-key", api_mode: "chat_completions" },
    sessions: { auto_title: false },
    // A turn with one tool call is reviewed; the curator's background pass stays out of the script.
    learning: { review: "on", review_tool_calls: 1, curator: "off" },
    logging: { level: "debug" },
  }),
});
const { step } = bench;

const isReview = (request: RecordedRequest) => String(request.body.messages[0]?.content ?? "").startsWith(REVIEW_MARK);
const systemPrompt = (request: RecordedRequest) => String(request.body.messages[0]?.content ?? "");

const RELEASE_SKILL = "---\nname: release-notes\ndescription: Write release notes from the changelog.\n---\n# Release notes\n\n1. Read CHANGELOG.md.\n2. Group the changes by area.\n";

test("Learned card with Undo; What Hermes knows: hand-written memory, skill stats, edit, delete, revert, next session", async () => {
  const p = bench.page;
  const { model, workspace, hermesHome } = bench;
  const memoryFile = path.join(hermesHome, "memories", "MEMORY.md");
  const skillDir = path.join(hermesHome, "skills", "release-notes");
  mkdirSync(skillDir, { recursive: true });
  writeFileSync(path.join(skillDir, "SKILL.md"), RELEASE_SKILL);
  let panel!: Frame;

  await step("k01-learned-card", async () => {
    await p.goto(`${bench.server.url}/?folder=${encodeURIComponent(workspace)}`);
    await waitForWorkbench(p);
    await openHermesView(p);
    await resizeSidebar(p, 460);
    panel = await findPanelFrame(p);
    await waitForAttribute(panel.locator("[data-testid=connection-status]").first(), "data-status", /^ready$/, 60_000);
    // The turn reads the config; the review that follows saves the port to memory.
    const reviewOrTurn = (turn: ScriptedReply, review: ScriptedReply): ScriptedReply => ({ handler: (request) => (isReview(request) ? review : turn) });
    model.enqueue(
      reviewOrTurn({ toolCalls: [{ id: "read1", name: "read_file", arguments: { path: "server.conf" } }] }, { text: "unexpected review" }),
      reviewOrTurn({ text: "The server listens on port 8080." }, { text: "unexpected review" }),
      reviewOrTurn({ text: "unexpected turn" }, { toolCalls: [{ id: "mem1", name: "memory", arguments: { action: "add", target: "memory", content: "The API server in this workspace listens on port 8080 (server.conf)." } }] }),
      reviewOrTurn({ text: "unexpected turn" }, { text: "Saved the port." }),
    );
    await send(panel, "Which port does the server use?");
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "port 8080" }).first().waitFor({ timeout: 60_000 });
    const card = panel.locator("[data-testid=learned-card]");
    await card.waitFor({ timeout: 60_000 });
    assert.match((await card.textContent()) ?? "", /Learned: .*port 8080[\s\S]*memory · MEMORY\.md/);
    assert.match(readFileSync(memoryFile, "utf8"), /listens on port 8080/);
  });

  await step("k02-learned-undo", async () => {
    await waitForIdle(panel);
    await panel.locator("[data-testid=learned-undo]").click();
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: /Undid `?l[0-9a-f]+/ }).first().waitFor({ timeout: 30_000 });
    assert.doesNotMatch(readFileSync(memoryFile, "utf8"), /port 8080/, "the entry the review added is gone");
  });

  await step("k03-skill-used", async () => {
    // Edited by hand while Hermes runs: the view and the next session read the files as they are.
    writeFileSync(memoryFile, "Deploys go through make release\n§\nThe staging host is staging.example.test\n");
    writeFileSync(path.join(hermesHome, "memories", "USER.md"), "Prefers short answers\n");
    model.enqueue({ text: "Release notes drafted from CHANGELOG.md." });
    await send(panel, "/release-notes for 2.0");
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "Release notes drafted" }).first().waitFor({ timeout: 60_000 });
    await waitForIdle(panel);
  });

  const view = () => panel.locator("[data-testid=knowledge-view]");
  const memoryEntries = () => view().locator("[data-testid=knowledge-memory][data-target=memory] [data-testid=knowledge-entry]");
  const entryTexts = async () => (await memoryEntries().locator("[data-testid=knowledge-entry-text]").allTextContents()).map((text) => text.trim());

  await step("k04-knowledge-view", async () => {
    await runCommand(p, "Hermes: What Hermes Knows (Memory and Skills)");
    await view().waitFor({ timeout: 30_000 });
    await waitForCount(memoryEntries(), 2, 30_000);
    assert.deepEqual(await entryTexts(), ["Deploys go through make release", "The staging host is staging.example.test"]);
    assert.match((await view().locator("[data-testid=knowledge-memory][data-target=user]").textContent()) ?? "", /Prefers short answers/);
    const skill = view().locator("[data-testid=knowledge-skill][data-name=release-notes]");
    assert.match((await skill.locator("[data-testid=knowledge-skill-stats]").textContent()) ?? "", /^used 1× · last \d{4}-\d\d-\d\d · 1\/1 went well$/);
    assert.equal(await panel.locator("[data-testid=composer]").isVisible(), false, "a screen of its own, like the history");
  });

  await step("k05-edit-entry", async () => {
    const first = memoryEntries().nth(0);
    await first.hover();
    await first.locator("[data-testid=knowledge-edit]").click();
    const editor = view().locator("[data-testid=knowledge-editor]");
    await editor.fill("Deploys go through make release-prod");
    await bench.shot("k05a-editing-entry");
    await view().locator("[data-testid=knowledge-save]").click();
    await waitForAttribute(view().locator("[data-testid=knowledge-outcome]"), "data-ok", /^true$/, 30_000);
    await waitFor(async () => (await entryTexts())[0] === "Deploys go through make release-prod", 30_000, "the edited entry never showed");
    assert.match(readFileSync(memoryFile, "utf8"), /^Deploys go through make release-prod\n§\nThe staging host/);
  });

  await step("k06-delete-entry", async () => {
    const second = memoryEntries().nth(1);
    await second.hover();
    await second.locator("[data-testid=knowledge-delete]").click();
    await waitForCount(memoryEntries(), 1, 30_000);
    assert.doesNotMatch(readFileSync(memoryFile, "utf8"), /staging host/);
  });

  await step("k07-revert", async () => {
    await view().locator("[data-testid=knowledge-memory][data-target=memory] [data-testid=knowledge-revert]").click();
    await waitForCount(memoryEntries(), 2, 30_000);
    assert.deepEqual(await entryTexts(), ["Deploys go through make release-prod", "The staging host is staging.example.test"]);
    assert.match((await view().locator("[data-testid=knowledge-outcome]").textContent()) ?? "", /Reverted MEMORY\.md/);
  });

  await step("k08-skill-edited", async () => {
    const skill = view().locator("[data-testid=knowledge-skill][data-name=release-notes]");
    await skill.hover();
    await skill.locator("[data-testid=knowledge-skill-edit]").click();
    const editor = skill.locator("[data-testid=knowledge-editor]");
    assert.match(await editor.inputValue(), /2\. Group the changes by area\./);
    await editor.fill(RELEASE_SKILL.replace("2. Group the changes by area.", "2. Group the changes by area.\n3. Link each change to its pull request.").trim());
    await skill.locator("[data-testid=knowledge-save]").click();
    // The revert's outcome is still shown: wait for this save's.
    await view().locator("[data-testid=knowledge-outcome]").filter({ hasText: 'Saved "release-notes"' }).waitFor({ timeout: 30_000 });
    assert.match(readFileSync(path.join(skillDir, "SKILL.md"), "utf8"), /author: user[\s\S]*3\. Link each change to its pull request\./);
    await view().locator("[data-testid=knowledge-skill][data-name=release-notes] [data-testid=knowledge-skill-revert]").waitFor({ timeout: 30_000 });
  });

  await step("k08b-skill-deleted-to-archive", async () => {
    const skill = view().locator("[data-testid=knowledge-skill][data-name=release-notes]");
    await skill.hover();
    await skill.locator("[data-testid=knowledge-skill-delete]").click();
    await view().locator("[data-testid=knowledge-archive-confirm] [data-testid=confirm-yes]").click();
    await view().locator("[data-testid=knowledge-archived-skill][data-name=release-notes]").waitFor({ timeout: 30_000 });
    assert.equal(await skill.count(), 0);
    assert.ok(!existsSync(skillDir), "moved out of the skills folder");
  });

  await step("k09-skill-restored", async () => {
    await view().locator("[data-testid=knowledge-archived-skill][data-name=release-notes] [data-testid=knowledge-skill-restore]").click();
    await view().locator("[data-testid=knowledge-skill][data-name=release-notes]").waitFor({ timeout: 30_000 });
    assert.ok(existsSync(path.join(skillDir, "SKILL.md")), "back where it was");
  });

  await step("k10-next-session-sees-it", async () => {
    await view().locator("[data-testid=knowledge-back]").click();
    await runCommand(p, "Hermes: New Chat");
    // The new session is open once the old chat's title and transcript are gone.
    await panel.locator(".header-title").filter({ hasText: /^New chat$/ }).waitFor({ timeout: 30_000 });
    await waitForCount(panel.locator("[data-testid=msg-agent]"), 0, 30_000);
    model.enqueue({ text: "Noted." });
    const before = model.requests.length;
    await send(panel, "hello");
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "Noted." }).first().waitFor({ timeout: 60_000 });
    await waitForIdle(panel);
    const request = model.requests.slice(before).find((r) => !isReview(r));
    assert.ok(request, "the new session called the model");
    assert.match(systemPrompt(request), /Deploys go through make release-prod[\s\S]*staging\.example\.test/);
    assert.doesNotMatch(systemPrompt(request), /port 8080/, "the undone entry is not in the prompt");
    await send(panel, "/memory");
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "make release-prod" }).first().waitFor({ timeout: 30_000 });
  });
});
