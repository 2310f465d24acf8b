// Driving the code-server workbench with playwright-core and Debian's chromium: run commands
// from the command palette, and find the Hermes chat panel inside its webview iframes.
import { chromium, type Browser, type Frame, type Page } from "playwright-core";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.E2E_CHROMIUM ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
}

/** Waits for the workbench to be up and the explorer to be filled (the window is usable). */
export async function waitForWorkbench(page: Page, timeoutMs = 60_000): Promise<void> {
  await page.locator(".monaco-workbench").waitFor({ state: "visible", timeout: timeoutMs });
  await page.locator(".part.statusbar").waitFor({ state: "visible", timeout: timeoutMs });
}

/**
 * F1, the command's title, Enter: the way a user runs a command. Right after a window reload
 * the palette can open before the extension's commands are listed: then it tries again.
 */
export async function runCommand(page: Page, title: string, attempts = 3): Promise<void> {
  const input = page.locator(".quick-input-widget input.input");
  for (let attempt = 1; ; attempt++) {
    await page.locator(".monaco-workbench").click({ position: { x: 5, y: 5 }, force: true }).catch(() => undefined);
    await page.keyboard.press("F1");
    await input.waitFor({ state: "visible", timeout: 15_000 });
    await input.fill(`>${title}`);
    // The first row must be the command itself, not a fuzzy neighbour.
    const row = page.locator(".quick-input-list .monaco-list-row").filter({ hasText: title }).first();
    try {
      await row.waitFor({ state: "visible", timeout: attempt < attempts ? 8_000 : 15_000 });
    } catch (error) {
      if (attempt >= attempts) throw error;
      await page.keyboard.press("Escape");
      await input.waitFor({ state: "hidden", timeout: 5_000 }).catch(() => undefined);
      continue;
    }
    await row.click();
    await input.waitFor({ state: "hidden", timeout: 15_000 });
    return;
  }
}

/**
 * The frame holding the chat panel's page: code-server renders a webview as an outer
 * `iframe.webview` whose inner iframe holds the extension's HTML. Searches every frame for the
 * composer, so it also finds the panel when VS Code changes the nesting.
 */
export async function findPanelFrame(page: Page, timeoutMs = 60_000): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of page.frames()) {
      if (frame === page.mainFrame()) continue;
      try {
        if ((await frame.locator("[data-testid=composer]").count()) > 0) return frame;
      } catch {
        // a frame that navigated or detached meanwhile
      }
    }
    if (Date.now() > deadline) throw new Error(`no frame with [data-testid=composer] within ${timeoutMs} ms (${page.frames().length} frames)`);
    await page.waitForTimeout(250);
  }
}

/**
 * Shows the Hermes chat view with its focus command, from the command palette. (A click on the
 * activity-bar icon toggles: while VS Code restores the view after a reload it would hide it.)
 */
export async function openHermesView(page: Page, timeoutMs = 60_000): Promise<void> {
  // The icon appears once the extension's contributions are registered.
  await page.locator('.activitybar [aria-label^="Hermes"]').first().waitFor({ state: "visible", timeout: timeoutMs });
  await runCommand(page, "Hermes: Focus on Chat View");
  await page.locator(".part.sidebar .composite.title").filter({ hasText: /hermes/i }).first().waitFor({ state: "visible", timeout: timeoutMs });
}

/** Drags the sash between the side bar and the editor so the side bar is `width` pixels wide. */
export async function resizeSidebar(page: Page, width: number): Promise<void> {
  const box = await page.locator(".part.sidebar").boundingBox();
  if (!box || Math.abs(box.width - width) < 4) return;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width + 1, y);
  await page.mouse.down();
  await page.mouse.move(box.x + width, y, { steps: 8 });
  await page.mouse.up();
  await page.mouse.move(box.x + width + 300, y);
}
