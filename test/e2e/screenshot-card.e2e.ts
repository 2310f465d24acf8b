// A browser screenshot in the panel's tool card (issue 33), in the packaged .vsix in
// code-server: a scripted model opens a page this test serves on 127.0.0.1 with browser_navigate,
// takes browser_screenshot, and the card shows the image (decoded, sized to the card); a click
// opens it full size in a lightbox, Escape closes it; after a window reload the replayed card
// shows it again. Screenshots s<NN>-<item>.png in test-artifacts/e2e/.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Frame } from "playwright-core";
import { startServer, type TestServer } from "../support/web-servers";
import { send, usePanelWorkbench, waitForAttribute, waitForIdle } from "./panel-fixture";
import { findPanelFrame, openHermesView, resizeSidebar, runCommand, waitForWorkbench } from "./workbench";

let site: TestServer;
before(async () => {
  site = await startServer({
    "/": (_req, res) =>
      res
        .writeHead(200, { "content-type": "text/html" })
        .end(`<!doctype html><title>Dev app</title><body style="margin:0;background:#1e6fd9;color:white;font:48px sans-serif"><h1 style="margin:40px">Hello from the dev server</h1><div style="margin:40px;width:300px;height:150px;background:#f5c400"></div></body>`),
  });
});
after(async () => {
  await site.close();
});

const bench = usePanelWorkbench({
  logPrefix: "shot-",
  hermesConfig: (modelUrl) => ({
    model: { provider: "custom", name: "fake-model", base_url: modelUrl, api_key: "sk-test-not-a-real-key", api_mode: "chat_completions", vision: true },
    sessions: { auto_title: false },
    learning: { review: "off" },
    logging: { level: "debug" },
    tools: { enabled: ["browser"] },
    browser: { executable: "/usr/bin/chromium" },
  }),
});
const { step } = bench;

/** Whether the card's <img> has decoded (a data URL the CSP refused would have no natural size). */
async function imageDecoded(frame: Frame): Promise<{ width: number; height: number; shown: number }> {
  const img = frame.locator("[data-testid=tool-card] [data-testid=tool-image] .tool-image-open img").last();
  await img.waitFor({ state: "visible", timeout: 60_000 });
  return img.evaluate((el) => {
    const image = el as unknown as { naturalWidth: number; naturalHeight: number };
    return { width: image.naturalWidth, height: image.naturalHeight, shown: el.getBoundingClientRect().width };
  });
}

test("the screenshot shows in the tool card, opens full size, and is still there after a reload", async () => {
  const p = bench.page;
  let panel!: Frame;
  const openPanel = async () => {
    await waitForWorkbench(p);
    await openHermesView(p);
    await resizeSidebar(p, 480);
    panel = await findPanelFrame(p);
    await waitForAttribute(panel.locator("[data-testid=connection-status]").first(), "data-status", /^ready$/, 60_000);
  };

  await step("s01-screenshot-in-card", async () => {
    await p.goto(`${bench.server.url}/?folder=${encodeURIComponent(bench.workspace)}`);
    await openPanel();
    bench.model.enqueue(
      { toolCalls: [{ name: "browser_navigate", arguments: { url: `${site.origin}/` } }] },
      { toolCalls: [{ name: "browser_screenshot", arguments: {} }] },
      { text: "The page renders: a blue page with the greeting." },
    );
    await send(panel, "Open the dev server and show me the page");
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "The page renders" }).waitFor({ timeout: 120_000 });
    await waitForIdle(panel);
    const { width, height, shown } = await imageDecoded(panel);
    assert.ok(width > 0 && height > 0, "the image decoded (the CSP allows data: images)");
    const card = panel.locator("[data-testid=tool-card]").filter({ has: panel.locator("[data-testid=tool-image]") }).last();
    const cardWidth = await card.evaluate((el) => el.getBoundingClientRect().width);
    assert.ok(shown > 0 && shown <= cardWidth, `the image fits the card (${shown} px in a ${cardWidth} px card)`);
    assert.match((await card.locator("figcaption").textContent()) ?? "", /^PNG, \d+ KB$/);
    await card.scrollIntoViewIfNeeded();
  });

  await step("s02-lightbox", async () => {
    await panel.locator("[data-testid=tool-image] .tool-image-open").last().click();
    const lightbox = panel.locator("[data-testid=image-lightbox]").last();
    await lightbox.locator("img").waitFor({ state: "visible", timeout: 10_000 });
    assert.equal(await lightbox.evaluate((el) => (el as unknown as { open: boolean }).open), true);
    // Full size: the image at its own pixels (the screenshot is wider than the panel: it scrolls).
    const sizes = await lightbox.locator("img").evaluate((el) => ({ natural: (el as unknown as { naturalWidth: number }).naturalWidth, shown: el.getBoundingClientRect().width }));
    assert.equal(sizes.shown, sizes.natural, `shown at ${sizes.shown} px, the image is ${sizes.natural} px wide`);
  });

  await step("s03-lightbox-closed", async () => {
    await panel.locator("[data-testid=image-lightbox]").last().click();
    await panel.locator("[data-testid=image-lightbox] img").last().waitFor({ state: "hidden", timeout: 10_000 });
  });

  await step("s04-after-reload", async () => {
    // The extension host and the agent restart; the chat comes back from the agent's journal.
    await runCommand(p, "Developer: Reload Window");
    await openPanel();
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "The page renders" }).waitFor({ timeout: 90_000 });
    const { width } = await imageDecoded(panel);
    assert.ok(width > 0, "the replayed card shows the screenshot");
    await panel.locator("[data-testid=tool-image]").last().scrollIntoViewIfNeeded();
  });
});
