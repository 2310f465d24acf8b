// Serves the built chat panel standalone, as the extension's webview would: an HTML page with
// a strict CSP (script nonce, styles from the server only), VS Code's Dark Modern theme
// variables, and a stub acquireVsCodeApi that records what the panel posts. Used by
// bench/panel.ts and bench/panel-screenshot.ts, driving Debian's Chromium with playwright-core.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { ROOT } from "./lib";

// PANEL_DIST points at another build of the panel (e.g. while dist/ is being rebuilt by others).
const DIST = process.env.PANEL_DIST ? path.resolve(process.env.PANEL_DIST) : path.join(ROOT, "dist");
export const WEBVIEW_JS = path.join(DIST, "webview.js");
const WEBVIEW_CSS = path.join(DIST, "webview.css");

/** Builds the bundles when dist/webview.js is missing (or BENCH_BUILD=1). */
export function ensurePanelBuilt(): void {
  if (existsSync(WEBVIEW_JS) && process.env.BENCH_BUILD !== "1") return;
  process.stdout.write("building dist/webview.js (node esbuild.config.mjs)...\n");
  const result = spawnSync(process.execPath, ["esbuild.config.mjs"], { cwd: ROOT, stdio: "inherit" });
  if (result.status !== 0) throw new Error("build failed");
}

/** The colours VS Code's default dark theme gives a webview (a representative subset). */
const THEME: Record<string, string> = {
  "font-family": `system-ui, "Ubuntu", "Droid Sans", sans-serif`,
  "font-size": "13px",
  "editor-font-family": `"DejaVu Sans Mono", "Droid Sans Mono", monospace`,
  "editor-font-size": "13px",
  foreground: "#cccccc",
  descriptionForeground: "#9d9d9d",
  disabledForeground: "#cccccc80",
  errorForeground: "#f85149",
  focusBorder: "#0078d4",
  "sideBar-background": "#181818",
  "editor-background": "#1f1f1f",
  "editorWidget-background": "#202020",
  "widget-border": "#313131",
  "widget-shadow": "#0000005c",
  "input-background": "#313131",
  "input-border": "#3c3c3c",
  "input-foreground": "#cccccc",
  "input-placeholderForeground": "#989898",
  "button-background": "#0078d4",
  "button-foreground": "#ffffff",
  "button-hoverBackground": "#026ec1",
  "button-border": "#ffffff12",
  "button-secondaryBackground": "#313131",
  "button-secondaryForeground": "#cccccc",
  "button-secondaryHoverBackground": "#3c3c3c",
  "badge-background": "#616161",
  "badge-foreground": "#f8f8f8",
  "textLink-foreground": "#4daafc",
  "textLink-activeForeground": "#4daafc",
  "textCodeBlock-background": "#2b2b2b",
  "textBlockQuote-border": "#616161",
  "toolbar-hoverBackground": "#5a5d5e50",
  "icon-foreground": "#cccccc",
  "progressBar-background": "#0078d4",
  "editorGroupHeader-tabsBackground": "#181818",
  "editorLineNumber-foreground": "#6e7681",
  "editorWarning-foreground": "#cca700",
  "editorInfo-foreground": "#3794ff",
  "editorCursor-foreground": "#aeafad",
  "testing-iconPassed": "#73c991",
  "charts-green": "#89d185",
  "diffEditor-insertedTextBackground": "#9ccc2c33",
  "diffEditor-removedTextBackground": "#ff000033",
  "diffEditor-insertedLineBackground": "#9bb95533",
  "diffEditor-removedLineBackground": "#ff000033",
  "gitDecoration-addedResourceForeground": "#81b88b",
  "gitDecoration-deletedResourceForeground": "#c74e39",
  "list-hoverBackground": "#2a2d2e",
  "list-inactiveSelectionBackground": "#37373d",
  "quickInput-background": "#222222",
  "quickInput-foreground": "#cccccc",
  "quickInputList-focusBackground": "#04395e",
  "quickInputList-focusForeground": "#ffffff",
  "inputValidation-infoBackground": "#063b49",
  "inputValidation-infoBorder": "#1b81a8",
  "inputValidation-warningBackground": "#352a05",
  "inputValidation-warningBorder": "#b89500",
  "inputValidation-errorBackground": "#5a1d1d",
  "inputValidation-errorBorder": "#be1100",
  "keybindingLabel-background": "#8080802b",
  "keybindingLabel-foreground": "#cccccc",
  "keybindingLabel-border": "#33333399",
  "dropdown-background": "#313131",
  "dropdown-foreground": "#cccccc",
  "debugTokenExpression-name": "#c586c0",
  "debugTokenExpression-string": "#ce9178",
  "debugTokenExpression-number": "#b5cea8",
  "symbolIcon-functionForeground": "#dcdcaa",
  "symbolIcon-classForeground": "#4ec9b0",
  "symbolIcon-variableForeground": "#9cdcfe",
};

const themeCss = `html {\n${Object.entries(THEME)
  .map(([key, value]) => `  --vscode-${key}: ${value};`)
  .join("\n")}\n}\n`;

const NONCE = "bench-nonce-8f3a";

/** Runs before the bundle: the VS Code API stub, plus timing wrappers the bench reads. */
const stubScript = `
window.__posted = [];
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => window.__cspViolations.push(e.violatedDirective + " " + (e.blockedURI || "inline")));
let saved;
window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m), getState: () => saved, setState: (s) => { saved = s; } });
// Main-thread cost accounting: time in the panel's message handlers and animation frames
// (including the render microtasks and the style/layout they cause).
const bench = (window.__bench = { handler: [], frames: [], chunksSinceFrame: 0, on: false });
const add = EventTarget.prototype.addEventListener;
window.addEventListener = function (type, fn, options) {
  if (type !== "message" || typeof fn !== "function") return add.call(this, type, fn, options);
  return add.call(this, type, function (event) {
    const start = performance.now();
    try { return fn.call(this, event); } finally {
      if (bench.on) { bench.handler.push(performance.now() - start); bench.chunksSinceFrame++; }
    }
  }, options);
};
const raf = window.requestAnimationFrame.bind(window);
window.requestAnimationFrame = (cb) => raf((ts) => {
  const start = performance.now();
  cb(ts);
  if (!bench.on) return;
  const chunks = bench.chunksSinceFrame;
  bench.chunksSinceFrame = 0;
  queueMicrotask(() => {
    const js = performance.now() - start;
    void document.body.offsetHeight;
    bench.frames.push({ ms: performance.now() - start, js, chunks, ts });
  });
});
`;

function pageHtml(origin: string): string {
  const csp = `default-src 'none'; script-src 'nonce-${NONCE}'; style-src ${origin}; img-src ${origin} data:; font-src ${origin}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${origin}/theme.css"><link rel="stylesheet" href="${origin}/webview.css">
<script nonce="${NONCE}">${stubScript}</script>
</head><body><div id="root"></div><script nonce="${NONCE}" src="${origin}/webview.js"></script></body></html>`;
}

export interface PanelPage {
  browser: Browser;
  page: Page;
  server: Server;
  url: string;
  close(): Promise<void>;
}

export async function openPanelPage(viewport = { width: 460, height: 900 }): Promise<PanelPage> {
  const server = createServer((req, res) => {
    const origin = `http://${req.headers.host}`;
    const send = (type: string, body: string | Buffer) => {
      res.writeHead(200, { "content-type": type, "cache-control": "no-store" });
      res.end(body);
    };
    if (req.url === "/" || req.url?.startsWith("/?")) send("text/html; charset=utf-8", pageHtml(origin));
    else if (req.url === "/theme.css") send("text/css", themeCss);
    else if (req.url === "/favicon.ico") send("image/x-icon", "");
    else if (req.url === "/webview.css") send("text/css", existsSync(WEBVIEW_CSS) ? readFileSync(WEBVIEW_CSS) : "");
    else if (req.url === "/webview.js") send("text/javascript", readFileSync(WEBVIEW_JS));
    else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  const page = await browser.newPage({ viewport });
  page.on("pageerror", (error) => process.stderr.write(`page error: ${error.message}\n`));
  page.on("console", (msg) => {
    if (msg.type() === "error" || msg.type() === "warning") process.stderr.write(`page ${msg.type()}: ${msg.text()}\n`);
  });
  return {
    browser,
    page,
    server,
    url,
    async close() {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Loads the page and waits for the panel's `ready`. */
export async function loadPanel(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForFunction("window.__posted.some((m) => m.type === 'ready')");
}
