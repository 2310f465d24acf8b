// The browser tools that navigate and read (allowed in plan mode): navigate, snapshot, back,
// forward, scroll, wait_for, console, screenshot, tabs. Results are compact text; page content
// is framed as untrusted data (page-text.ts).
import * as z from "zod";
import { containsSecret } from "../../util/redact";
import { guardOutbound } from "../outbound-guard";
import { defineTool, ToolError } from "../registry";
import { checkUrl } from "../web/guarded-fetch";
import { browserSettings } from "./browser-settings";
import { eventsText, REF_PATTERN, refLocator, snapshotText } from "./page-text";
import { rememberScreenshot } from "./latest-screenshot";
import { sandboxedServerHint } from "./sandboxed-server-hint";
import { sessionBrowser } from "./session-browser";

const ref = z.string().regex(REF_PATTERN, "a ref from browser_snapshot, like e12").describe("Element ref from the latest browser_snapshot, e.g. e12.");

export const browserNavigateTool = defineTool({
  name: "browser_navigate",
  toolset: "browser",
  description:
    "Open a URL in the session's browser (headless Chromium) and return the page's accessibility snapshot with element refs (e12) for browser_click/browser_type. " +
    "Loopback (localhost dev servers) and public sites are reachable; other private addresses only if web.allow_private lists them.",
  schema: z.object({ url: z.string().min(1).max(8192).describe("The http(s) URL to open.") }),
  kind: "fetch",
  readOnly: false,
  title: (args) => `Browse ${args.url}`,
  handler: async (args, ctx) => {
    const url = checkUrl(args.url);
    if (containsSecret(args.url)) throw new ToolError("The URL contains what looks like a credential (a key or token); Hermes does not send it to a web site.");
    await guardOutbound(ctx, { tool: "browser_navigate", destination: url.hostname, texts: [args.url] });
    const browser = await sessionBrowser(ctx.sessionId);
    const page = await browser.page();
    let status = "";
    try {
      const response = await page.goto(url.href, { waitUntil: "domcontentloaded" });
      if (response) status = `Status: ${response.status()}\n`;
    } catch (error) {
      const events = browser.drainEvents();
      const failure = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
      throw new ToolError(`Could not open ${url.href}: ${failure}${eventsText(events)}${sandboxedServerHint(url, failure, ctx.state)}`);
    }
    const text = await snapshotText(page, browserSettings().config.max_snapshot_chars);
    return { output: `${status}${text}${eventsText(browser.drainEvents())}` };
  },
});

export const browserSnapshotTool = defineTool({
  name: "browser_snapshot",
  toolset: "browser",
  description: "The current page's accessibility tree, compact, with refs (e12) to act on with browser_click, browser_type, browser_select, browser_hover, browser_screenshot. Refs change with each snapshot.",
  schema: z.object({}),
  kind: "read",
  readOnly: true,
  title: () => "Browser snapshot",
  handler: async (_args, ctx) => {
    const browser = await sessionBrowser(ctx.sessionId);
    const page = await browser.page();
    return { output: `${await snapshotText(page, browserSettings().config.max_snapshot_chars)}${eventsText(browser.drainEvents())}` };
  },
});

export const browserBackTool = defineTool({
  name: "browser_back",
  toolset: "browser",
  description: "Go back in the current tab's history (forward: true to go forward).",
  schema: z.object({ forward: z.boolean().optional() }),
  kind: "fetch",
  readOnly: false,
  title: (args) => (args.forward ? "Browser forward" : "Browser back"),
  handler: async (args, ctx) => {
    const browser = await sessionBrowser(ctx.sessionId);
    const page = await browser.page();
    const response = args.forward ? await page.goForward() : await page.goBack();
    if (!response && page.url() === "about:blank") return { output: "No page in that direction." };
    return { output: `${await snapshotText(page, browserSettings().config.max_snapshot_chars)}${eventsText(browser.drainEvents())}` };
  },
});

export const browserScrollTool = defineTool({
  name: "browser_scroll",
  toolset: "browser",
  description: "Scroll the page up or down by about one screen.",
  schema: z.object({ direction: z.enum(["up", "down"]) }),
  kind: "read",
  readOnly: true,
  title: (args) => `Scroll ${args.direction}`,
  handler: async (args, ctx) => {
    const page = await (await sessionBrowser(ctx.sessionId)).page();
    const height = page.viewportSize()?.height ?? 720;
    await page.mouse.wheel(0, args.direction === "down" ? height * 0.9 : -height * 0.9);
    const at = await page.evaluate<number>("Math.round(window.scrollY)");
    return { output: `Scrolled ${args.direction}; now ${at}px from the top. Call browser_snapshot to see it.` };
  },
});

export const browserWaitForTool = defineTool({
  name: "browser_wait_for",
  toolset: "browser",
  description: "Wait until text appears on the page, or a CSS selector matches, or (gone: true) disappears. Up to `seconds` (default 10).",
  schema: z
    .object({
      text: z.string().min(1).max(1000).optional(),
      selector: z.string().min(1).max(1000).optional(),
      gone: z.boolean().optional(),
      seconds: z.number().positive().max(120).optional(),
    })
    .refine((args) => (args.text === undefined) !== (args.selector === undefined), "give text or selector, one of them"),
  kind: "read",
  readOnly: true,
  title: (args) => `Wait for ${args.text ?? args.selector}`,
  handler: async (args, ctx) => {
    const page = await (await sessionBrowser(ctx.sessionId)).page();
    const target = args.text !== undefined ? page.getByText(args.text).first() : page.locator(args.selector as string).first();
    const timeout = (args.seconds ?? 10) * 1000;
    try {
      await target.waitFor({ state: args.gone ? "hidden" : "visible", timeout });
    } catch {
      // expected: a timeout is an answer for the model, not a failure of the tool
      return { output: `Still ${args.gone ? "present" : "not present"} after ${timeout / 1000}s: ${args.text ?? args.selector}`, isError: true };
    }
    return { output: `${args.gone ? "Gone" : "Present"}: ${args.text ?? args.selector}` };
  },
});

export const browserConsoleTool = defineTool({
  name: "browser_console",
  toolset: "browser",
  description: "Console messages, page errors (uncaught exceptions), failed network requests (HTTP >= 400 and network errors) and requests Hermes refused, since the last call.",
  schema: z.object({}),
  kind: "read",
  readOnly: true,
  title: () => "Browser console",
  handler: async (_args, ctx) => {
    const browser = await sessionBrowser(ctx.sessionId);
    const events = browser.drainEvents();
    return { output: events.length ? `Untrusted text from the page:${eventsText(events)}` : "No console messages, page errors or failed requests since the last call." };
  },
});

export const browserScreenshotTool = defineTool({
  name: "browser_screenshot",
  toolset: "browser",
  description: "A PNG screenshot of the visible page, or of one element (ref), shown to you as an image (when the model has vision) and to the user in the tool card.",
  schema: z.object({ ref: ref.optional(), full_page: z.boolean().optional() }),
  kind: "read",
  readOnly: true,
  title: (args) => (args.ref ? `Screenshot ${args.ref}` : "Screenshot"),
  handler: async (args, ctx) => {
    const page = await (await sessionBrowser(ctx.sessionId)).page();
    const png = args.ref ? await refLocator(page, args.ref).screenshot({ type: "png" }) : await page.screenshot({ type: "png", fullPage: args.full_page === true });
    const image = { mimeType: "image/png", data: png.toString("base64") };
    rememberScreenshot(ctx.sessionId, image);
    return {
      output: `Screenshot of ${args.ref ? `element ${args.ref} on ` : ""}${page.url()} (${png.length} bytes PNG, attached as an image).`,
      images: [image],
      content: [{ type: "image", ...image }],
    };
  },
});

export const browserTabsTool = defineTool({
  name: "browser_tabs",
  toolset: "browser",
  description: "List the browser's tabs, or switch to / close one by its index from the list.",
  schema: z.object({ action: z.enum(["list", "switch", "close"]), index: z.number().int().min(0).optional() }),
  kind: "read",
  readOnly: false,
  title: (args) => `Tabs: ${args.action}${args.index !== undefined ? ` ${args.index}` : ""}`,
  handler: async (args, ctx) => {
    const browser = await sessionBrowser(ctx.sessionId);
    const current = await browser.page();
    const pages = browser.pages();
    if (args.action !== "list") {
      const page = args.index !== undefined ? pages[args.index] : undefined;
      if (!page) throw new ToolError(`No tab ${args.index ?? "(index missing)"}; there are ${pages.length}.`);
      if (args.action === "switch") {
        browser.select(page);
        await page.bringToFront();
      } else await page.close();
    }
    const now = await browser.page();
    const lines = await Promise.all(browser.pages().map(async (page, index) => `${index}${page === now ? " *" : ""} ${await page.title().catch(() => "") /* expected: a tab mid-navigation has no title yet */} ${page.url()}`));
    return { output: `Tabs (* = current${current !== now ? ", switched" : ""}):\n${lines.join("\n")}` };
  },
});
