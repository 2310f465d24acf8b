// Signing in from the panel (issue 18), in the packaged .vsix in code-server: a first run with
// no key shows what is missing and a "Sign in…" button; the provider is picked from the agent's
// own methods, the key typed in VS Code's password box, and the chat starts and answers. The key
// lands in $HERMES_HOME/.env with mode 600. Screenshots s<NN>-<item> in test-artifacts/e2e/.
import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import type { Frame } from "playwright-core";
import { send, usePanelWorkbench, waitFor, waitForAttribute, waitForIdle } from "./panel-fixture";
import { findPanelFrame, openHermesView, resizeSidebar, waitForWorkbench } from "./workbench";

const KEY = "sk-e2e-typed-in-the-box-42";

const bench = usePanelWorkbench({
  logPrefix: "sign-in-",
  // A provider with a key to find, and none anywhere: the first chat is auth-required.
  hermesConfig: (url) => ({
    model: { provider: "openai", name: "fake-model", base_url: url, api_mode: "chat_completions" },
    sessions: { auto_title: false },
    learning: { review: "off" },
    logging: { level: "debug" },
  }),
});
const { step } = bench;

test("no key: the panel says so and offers Sign in; a key typed in the password box starts the chat", async () => {
  const p = bench.page;
  let panel!: Frame;

  await step("s01-sign-in-notice", async () => {
    await p.goto(`${bench.server.url}/?folder=${encodeURIComponent(bench.workspace)}`);
    await waitForWorkbench(p);
    await openHermesView(p);
    await resizeSidebar(p, 420);
    panel = await findPanelFrame(p);
    await waitForAttribute(panel.locator("[data-testid=connection-status]").first(), "data-status", /^ready$/, 60_000);
    const button = panel.locator("[data-testid=notice-sign-in]");
    await button.waitFor({ timeout: 60_000 });
    assert.equal(await button.count(), 1, "one notice, however often the panel asks to start");
    const notice = panel.locator(".notice").filter({ has: button });
    const text = (await notice.textContent()) ?? "";
    assert.match(text, /Hermes needs a model before it can chat\. No API key for provider "openai"/);
    assert.doesNotMatch(text, /authenticate|ACP|-32000/, "no protocol words");
  });

  await step("s02-pick-provider", async () => {
    await panel.locator("[data-testid=notice-sign-in]").click();
    const input = p.locator(".quick-input-widget input.input");
    await input.waitFor({ state: "visible", timeout: 30_000 });
    const rows = p.locator(".quick-input-list .monaco-list-row");
    await rows.filter({ hasText: "Set up in a terminal" }).first().waitFor({ timeout: 15_000 });
    assert.ok((await rows.filter({ hasText: "OpenAI API key" }).count()) > 0, "the agent's own methods are offered");
    await input.fill("OpenAI API key");
    await rows.filter({ hasText: "OpenAI API key" }).first().waitFor({ timeout: 15_000 });
  });

  await step("s03-key-box", async () => {
    await p.keyboard.press("Enter");
    const input = p.locator(".quick-input-widget input.input");
    await waitFor(async () => (await input.getAttribute("type")) === "password", 15_000, "the key box is a password box");
    await input.fill(KEY);
    assert.equal(await p.locator(".quick-input-widget").getByText(KEY).count(), 0, "the key is not shown");
  });

  await step("s04-signed-in-chat", async () => {
    await p.keyboard.press("Enter");
    await p.locator(".notifications-toasts").getByText(/signed in \(OpenAI API key\)/).waitFor({ timeout: 60_000 });
    const envFile = path.join(bench.hermesHome, ".env");
    await waitFor(() => {
      try {
        // The panel's model is a loopback server at an overridden base_url: the key is stored under that endpoint's own name.
        return readFileSync(envFile, "utf8").includes(`HERMES_127_0_0_1_${new URL(bench.model.url).port}_API_KEY=${KEY}`);
      } catch {
        return false;
      }
    }, 30_000, "the key in $HERMES_HOME/.env");
    assert.equal(statSync(envFile).mode & 0o777, 0o600);
    bench.model.enqueue({ text: "Signed in and **answering**." });
    await send(panel, "Hello after signing in");
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "Signed in and answering" }).waitFor({ timeout: 60_000 });
    await waitForIdle(panel);
    assert.equal(bench.model.requests.at(-1)?.headers.authorization, `Bearer ${KEY}`);
  });
});
