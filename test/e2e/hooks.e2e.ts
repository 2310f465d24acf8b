// A hook in the panel, in the packaged .vsix in code-server (issue 31): a PreToolUse hook in
// Claude Code's format (matcher Bash, exit 2) blocks a command; the tool card says which hook
// blocked it and why, and the model reads the reason. Screenshot h01-hook-blocked-call.
import assert from "node:assert/strict";
import { chmodSync, existsSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import type { Frame } from "playwright-core";
import { send, usePanelWorkbench, waitForAttribute, waitForIdle } from "./panel-fixture";
import { findPanelFrame, openHermesView, resizeSidebar, waitForWorkbench } from "./workbench";

const HOOK = path.join(os.tmpdir(), `hermes-e2e-no-force-push-${process.pid}.sh`);
writeFileSync(HOOK, `#!/bin/sh\ninput=$(cat)\ncase "$input" in *--force*) echo "force pushes are not allowed from agents" >&2; exit 2;; esac\nexit 0\n`);
chmodSync(HOOK, 0o755);

const bench = usePanelWorkbench({
  logPrefix: "hooks-",
  prepareWorkspace: (workspace) => writeFileSync(path.join(workspace, "README.md"), "# demo\n"),
  hermesConfig: (url) => ({
    model: { provider: "custom", name: "fake-model", base_url: url, api_key: "sk-test-not-a-real-key", api_mode: "chat_completions" },
    sessions: { auto_title: false },
    learning: { review: "off" },
    hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: HOOK }] }] },
  }),
});
const { step } = bench;

test("a PreToolUse hook blocks a command: the card names the hook and its reason", async () => {
  const p = bench.page;
  const { model, workspace } = bench;
  let panel!: Frame;

  await step("h01-hook-blocked-call", async () => {
    await p.goto(`${bench.server.url}/?folder=${encodeURIComponent(workspace)}`);
    await waitForWorkbench(p);
    await openHermesView(p);
    await resizeSidebar(p, 420);
    panel = await findPanelFrame(p);
    await waitForAttribute(panel.locator("[data-testid=connection-status]").first(), "data-status", /^ready$/, 60_000);
    model.enqueue({ toolCalls: [{ id: "push1", name: "terminal", arguments: { command: "git push --force origin main > pushed.txt" } }] }, { text: "The hook refused the force push, so I stopped." });
    await send(panel, "Force-push main");
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "The hook refused the force push" }).waitFor({ timeout: 60_000 });
    await waitForIdle(panel);
    const card = panel.locator("[data-testid=tool-card]").last();
    await waitForAttribute(card, "data-status", /^failed$/, 30_000);
    await card.getByText(/blocked: force pushes are not allowed from agents/).first().waitFor({ timeout: 10_000 });
    const result = model.requests.at(-1)!.body.messages.find((m: { role: string; tool_call_id?: string }) => m.role === "tool" && m.tool_call_id === "push1");
    assert.match(result.content, /A PreToolUse hook blocked this call: force pushes are not allowed from agents/);
    assert.ok(!existsSync(path.join(workspace, "pushed.txt")), "the command did not run");
  });
});
