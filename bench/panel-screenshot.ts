// Screenshots of the standalone panel with a realistic transcript (tool calls, a permission
// card, a review card, plan, usage, a queued prompt), for looking at the panel without VS Code.
//   node --import tsx bench/panel-screenshot.ts [out.png]     (default test-artifacts/panel-standalone.png)
//   PANEL_WIDTH, PANEL_HEIGHT, PANEL_SCROLL_TOP (transcript scroll), PANEL_VIEW=history, PANEL_DIST (another build)
import { mkdirSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./lib";
import { historyOpen, showcase } from "./panel-fixtures";
import { ensurePanelBuilt, loadPanel, openPanelPage } from "./panel-page";

async function main(): Promise<void> {
  ensurePanelBuilt();
  const out = path.resolve(process.argv[2] ?? path.join(ROOT, "test-artifacts", "panel-standalone.png"));
  mkdirSync(path.dirname(out), { recursive: true });
  const width = Number(process.env.PANEL_WIDTH ?? 480);
  const height = Number(process.env.PANEL_HEIGHT ?? 1400);
  const panel = await openPanelPage({ width, height });
  try {
    await loadPanel(panel.page, panel.url);
    // PANEL_VIEW=history shows the history list instead of the transcript.
    const history = process.env.PANEL_VIEW === "history";
    const state = history ? historyOpen() : showcase();
    await panel.page.evaluate(`window.postMessage(${JSON.stringify({ type: "snapshot", state })}, "*")`);
    await panel.page.waitForSelector(history ? '[data-testid="history-item"]' : '[data-testid="permission-card"]');
    if (process.env.PANEL_SCROLL_TOP) await panel.page.evaluate(`document.querySelector(".transcript").scrollTop = ${Number(process.env.PANEL_SCROLL_TOP)}`);
    await panel.page.waitForTimeout(300);
    await panel.page.screenshot({ path: out });
    const violations = await panel.page.evaluate<string[]>("window.__cspViolations");
    process.stdout.write(`wrote ${out} (${width}×${height}); CSP violations: ${violations.length}${violations.length ? ` ${violations.join("; ")}` : ""}\n`);
  } finally {
    await panel.close();
  }
}

await main();
