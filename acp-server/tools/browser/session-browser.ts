// One browser context per session, started on the first browser tool call: the Chromium process,
// its pages (tabs), and what the page said (console, errors, failed and refused requests).
// playwright-core is imported here, lazily, so it never loads at initialize or session/new.
// Chromium is launched over a pipe (Playwright's default): when the agent dies, even by kill -9,
// the pipe closes and Chromium quits; Playwright also kills it on a normal exit.
import { mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page, Route } from "playwright-core";
import { ToolError } from "../registry";
import { webSettings } from "../web/web-settings";
import { chooseBrowser } from "./browser-executable";
import { checkBrowserRequest } from "./browser-network-policy";
import { startGuardProxy, type GuardProxy } from "./guard-proxy";
import { forgetScreenshot } from "./latest-screenshot";
import { forgetBrowser, registerBrowser } from "./open-browsers";
import { browserSettings } from "./browser-settings";

/** Entries kept per log (console, errors, network): the latest ones matter. */
const LOG_LIMIT = 200;

export interface PageEvent {
  kind: "console" | "pageerror" | "requestfailed" | "blocked";
  text: string;
}

export class SessionBrowser {
  readonly events: PageEvent[] = [];
  private current: Page | undefined;

  private constructor(
    private readonly browser: Browser | undefined,
    readonly context: BrowserContext,
    readonly downloads: string,
    private readonly proxy: GuardProxy,
  ) {}

  static async start(sessionId: string): Promise<SessionBrowser> {
    const { config, home } = browserSettings();
    const { chromium } = await loadPlaywright();
    const downloads = path.join(os.tmpdir(), `hermes-browser-${sessionId.replace(/[^\w-]/g, "_")}`, "downloads");
    mkdirSync(downloads, { recursive: true });
    const timeout = config.timeout * 1000;
    let browser: Browser | undefined;
    let context: BrowserContext;
    const refused: PageEvent[] = [];
    // Filled in once the session exists; refusals before that are kept and replayed into it.
    let report: (event: PageEvent) => void = (event) => refused.push(event);
    const guardProxy = await startGuardProxy(
      () => webSettings().allowPrivate,
      (url, reason) => report({ kind: "blocked", text: `${url.slice(0, 300)}: ${reason}` }),
    );
    // Loopback stays direct (allowed anyway; Chromium never proxies it); everything else, every hop, goes through the guard.
    const proxy = { server: guardProxy.url };
    try {
      if (config.cdp_url) {
        browser = await chromium.connectOverCDP(config.cdp_url, { timeout });
        context = await browser.newContext({ acceptDownloads: true, proxy });
      } else {
        const chosen = chooseBrowser(config.executable);
        const launch = { headless: config.headless, timeout, proxy, ...(chosen.executable ? { executablePath: chosen.executable } : {}), downloadsPath: downloads };
        if (config.persist_profile) {
          const profile = path.join(home ?? path.join(os.homedir(), ".hermes"), "browser-profile");
          context = await chromium.launchPersistentContext(profile, { ...launch, acceptDownloads: true });
        } else {
          browser = await chromium.launch(launch);
          context = await browser.newContext({ acceptDownloads: true });
        }
      }
    } catch (error) {
      guardProxy.close();
      throw new ToolError(`The browser could not start: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}. Set browser.executable in config.yaml to a Chrome or Chromium binary (see docs/browser.md).`);
    }
    context.setDefaultTimeout(timeout);
    const session = new SessionBrowser(browser, context, downloads, guardProxy);
    report = (event) => session.record(event);
    for (const event of refused) session.record(event);
    await context.route("**/*", (route) => session.guard(route));
    context.on("page", (page) => session.watch(page));
    for (const page of context.pages()) session.watch(page);
    return session;
  }

  /** The page tools act on; a first blank one when there is none. */
  async page(): Promise<Page> {
    if (this.current && !this.current.isClosed()) return this.current;
    const open = this.context.pages().filter((page) => !page.isClosed());
    this.current = open.at(-1) ?? (await this.context.newPage());
    return this.current;
  }

  pages(): Page[] {
    return this.context.pages().filter((page) => !page.isClosed());
  }

  select(page: Page): void {
    this.current = page;
  }

  /** Events recorded since the last call, oldest first. */
  drainEvents(): PageEvent[] {
    return this.events.splice(0, this.events.length);
  }

  async close(): Promise<void> {
    try {
      this.proxy.close();
      await this.context.close();
      await this.browser?.close();
    } catch {
      // expected: the browser already went away (crashed or closed by the user)
    }
  }

  private async guard(route: Route): Promise<void> {
    const url = route.request().url();
    const verdict = await checkBrowserRequest(url, webSettings().allowPrivate, AbortSignal.timeout(browserSettings().config.timeout * 1000));
    if (!verdict.allowed) {
      this.record({ kind: "blocked", text: `${url.slice(0, 300)}: ${verdict.reason}` });
      return route.abort("blockedbyclient");
    }
    return route.continue();
  }

  private watch(page: Page): void {
    page.on("console", (message) => this.record({ kind: "console", text: `[${message.type()}] ${message.text()}` }));
    page.on("pageerror", (error) => this.record({ kind: "pageerror", text: error.message }));
    page.on("requestfailed", (request) => {
      const failure = request.failure()?.errorText ?? "failed";
      if (failure.includes("ERR_BLOCKED_BY_CLIENT")) return; // already recorded as refused, with the reason
      this.record({ kind: "requestfailed", text: `${request.method()} ${request.url().slice(0, 300)}: ${failure}` });
    });
    page.on("response", (response) => {
      if (response.status() >= 400) this.record({ kind: "requestfailed", text: `${response.request().method()} ${response.url().slice(0, 300)}: HTTP ${response.status()}` });
    });
    page.on("download", (download) => {
      const target = path.join(this.downloads, path.basename(download.suggestedFilename()) || "download");
      download.saveAs(target).then(
        () => this.record({ kind: "console", text: `[download] saved ${target}` }),
        (error: unknown) => this.record({ kind: "console", text: `[download] failed: ${String(error)}` }),
      );
    });
  }

  record(event: PageEvent): void {
    this.events.push({ ...event, text: event.text.slice(0, 2_000) });
    if (this.events.length > LOG_LIMIT) this.events.splice(0, this.events.length - LOG_LIMIT);
  }
}

const browsers = new Map<string, Promise<SessionBrowser>>();

/** The session's browser, started on first use. */
export function sessionBrowser(sessionId: string): Promise<SessionBrowser> {
  let started = browsers.get(sessionId);
  if (!started) {
    started = SessionBrowser.start(sessionId);
    browsers.set(sessionId, started);
    registerBrowser(sessionId, () => closeSessionBrowser(sessionId));
    // A failed start is not cached: the next call tries again (after the user fixed the config).
    started.catch(() => browsers.delete(sessionId)); // expected: the caller gets the error from `started` itself
  }
  return started;
}

/** Closes a session's browser (session closed); a no-op when it never started. */
export async function closeSessionBrowser(sessionId: string): Promise<void> {
  const started = browsers.get(sessionId);
  browsers.delete(sessionId);
  forgetBrowser(sessionId);
  forgetScreenshot(sessionId);
  if (started) await (await started.catch(() => undefined))?.close(); // expected: a browser that never started has nothing to close
}

/**
 * The browser engine's driver. It is not bundled (it finds its own files from its folder) but shipped
 * in dist/vendor/ (scripts/vendor-playwright.mjs); a copy that lost it says how to add it rather than
 * failing with a module error.
 */
export async function loadPlaywright(): Promise<typeof import("playwright-core")> {
  try {
    return await import("playwright-core");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") throw error;
    throw new ToolError("The browser tools need the playwright-core package, which this copy of Hermes is missing (it ships in dist/vendor/playwright-core): reinstall Hermes, or install it next to Hermes (`npm install -g playwright-core`), then try again. No browser is downloaded; Hermes uses your Chrome or Chromium.");
  }
}

