// An MCP server behind OAuth from the panel, in the packaged .vsix in code-server (issue 30): the
// session's sign-in link arrives as a URL-mode question card; "Open in browser" opens it through
// VS Code (a new page in the real browser, Chromium, which goes through the authorization
// server's pages with its own cookies and comes back to Hermes's loopback listener); the
// server's tools then work in the chat. (code-server forwards local ports through its own origin,
// so the test sends the page to the link as Hermes wrote it.) Screenshots o01-mcp-sign-in-card, o02-mcp-signed-in.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import type { Frame } from "playwright-core";
import { stringify as toYaml } from "yaml";
import { startOAuthWorld, type OAuthWorld } from "../support/oauth-servers";
import { send, usePanelWorkbench, waitForAttribute, waitForIdle } from "./panel-fixture";
import { findPanelFrame, openHermesView, resizeSidebar, waitForWorkbench } from "./workbench";

let world: OAuthWorld;
before(async () => {
  world = await startOAuthWorld();
});
after(async () => {
  await world?.close();
});

const bench = usePanelWorkbench({
  logPrefix: "oauth-",
  prepareWorkspace: (workspace) => writeFileSync(path.join(workspace, "README.md"), "# demo\n"),
  hermesConfig: (url) => hermesConfig(url),
});

/** The config with the protected server; written again once the authorization world is up (it starts after the fixture's). */
function hermesConfig(modelUrl: string, mcpUrl?: string): Record<string, unknown> {
  return {
    model: { provider: "custom", name: "fake-model", base_url: modelUrl, api_key: "sk-test-not-a-real-key", api_mode: "chat_completions" },
    sessions: { auto_title: false },
    learning: { review: "off" },
    ...(mcpUrl ? { mcp_servers: { protected: { url: mcpUrl } } } : {}),
  };
}
const { step } = bench;

test("a remote MCP server behind OAuth: the panel shows the sign-in card, Open in browser signs in, the server's tools work", async () => {
  const p = bench.page;
  const { model } = bench;
  let panel!: Frame;

  await step("o01-mcp-sign-in-card", async () => {
    // Before the panel opens: the agent starts with it and reads its config then.
    writeFileSync(path.join(bench.hermesHome, "config.yaml"), toYaml(hermesConfig(model.url, world.mcpUrl)));
    await p.goto(`${bench.server.url}/?folder=${encodeURIComponent(bench.workspace)}`);
    await waitForWorkbench(p);
    await openHermesView(p);
    await resizeSidebar(p, 420);
    panel = await findPanelFrame(p);
    await waitForAttribute(panel.locator("[data-testid=connection-status]").first(), "data-status", /^ready$/, 60_000);
    const card = panel.locator("[data-testid=question-card]").filter({ hasText: 'Sign in to the MCP server "protected"' });
    await card.waitFor({ timeout: 60_000 });
    await card.locator("[data-testid=question-choice]").filter({ hasText: "Open in browser" }).waitFor({ timeout: 10_000 });
  });

  await step("o02-mcp-signed-in", async () => {
    const card = panel.locator("[data-testid=question-card]").filter({ hasText: 'Sign in to the MCP server "protected"' });
    // VS Code opens the link outside the workbench: in code-server, a new page of the same browser.
    const popup = p.context().waitForEvent("page", { timeout: 30_000 });
    await card.locator("[data-testid=question-choice]").filter({ hasText: "Open in browser" }).click();
    const opened = await popup;
    await opened.waitForLoadState("domcontentloaded").catch(() => undefined);
    // code-server forwards local ports through itself (/proxy/PORT/ on its own origin), as it does
    // for a dev server on a remote machine; here the authorization server is on this machine, so
    // the page goes to the link as Hermes wrote it, and Chromium walks the server's pages and its
    // redirect back to Hermes's loopback listener.
    const proxied = /^https?:\/\/[^/]+\/proxy\/(\d+)(\/.*)$/.exec(opened.url());
    const link = proxied ? `http://127.0.0.1:${proxied[1]}${proxied[2]}` : opened.url();
    assert.equal(new URL(link).origin, world.issuer, `the card opened the authorization server: ${opened.url()}`);
    await opened.goto(link);
    await opened.getByText("Signed in to protected").waitFor({ timeout: 30_000 });
    await card.locator("[data-testid=question-outcome]").filter({ hasText: /Opened 127\.0\.0\.1:\d+ in your browser/ }).waitFor({ timeout: 30_000 });
    await opened.close().catch(() => undefined);

    model.enqueue({ toolCalls: [{ id: "who1", name: "mcp_protected_whoami", arguments: {} }] }, { text: "You are alice on the protected server." });
    // The tools appear once the browser is back: a prompt sent before that would not see them.
    for (let attempt = 0; attempt < 30; attempt++) {
      await send(panel, "/mcp");
      await waitForIdle(panel);
      const text = (await panel.locator("[data-testid=msg-agent]").last().textContent()) ?? "";
      if (/protected.*ready/.test(text)) break;
    }
    await send(panel, "Who am I on the protected server?");
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "You are alice on the protected server." }).waitFor({ timeout: 60_000 });
    await waitForIdle(panel);
    const result = model.requests.at(-1)!.body.messages.find((m: { role: string; tool_call_id?: string }) => m.role === "tool" && m.tool_call_id === "who1");
    assert.match(String(result?.content), /account alice/);
  });
});
