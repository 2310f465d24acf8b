// The browser tools that act on a page: click, type, press, select, hover, evaluate. Each passes
// browser-gate.ts (refused in plan mode; evaluate asks in default mode); typed text passes the
// outbound secret check, since it leaves for the page's site.
import * as z from "zod";
import { guardOutbound } from "../outbound-guard";
import { defineTool, ToolError } from "../registry";
import { gateAction } from "./browser-gate";
import { eventsText, REF_PATTERN, refLocator } from "./page-text";
import { sessionBrowser, type SessionBrowser } from "./session-browser";

const ref = z.string().regex(REF_PATTERN, "a ref from browser_snapshot, like e12").describe("Element ref from the latest browser_snapshot, e.g. e12.");

/** What an action leaves the model: where the page is now, and what it said meanwhile. */
async function afterAction(browser: SessionBrowser, done: string): Promise<string> {
  const page = await browser.page();
  // Give a navigation the click started a moment to commit, without waiting on the clock.
  await page.waitForLoadState("domcontentloaded").catch(() => undefined); // expected: the page closed or crashed; the next tool says so
  return `${done}. Now at ${page.url()}; call browser_snapshot to see the page.${eventsText(browser.drainEvents())}`;
}

function actionError(what: string, error: unknown): ToolError {
  const text = error instanceof Error ? error.message.split("\n")[0] : String(error);
  return new ToolError(`${what} failed: ${text}. Take a new browser_snapshot: refs change when the page does.`);
}

export const browserClickTool = defineTool({
  name: "browser_click",
  toolset: "browser",
  description: "Click an element by its ref from browser_snapshot.",
  schema: z.object({ ref }),
  kind: "other",
  readOnly: false,
  title: (args) => `Click ${args.ref}`,
  handler: async (args, ctx) => {
    await gateAction(ctx, "browser_click", `Click ${args.ref} in the browser`);
    const browser = await sessionBrowser(ctx.sessionId);
    const page = await browser.page();
    try {
      await refLocator(page, args.ref).click();
    } catch (error) {
      throw actionError(`Click ${args.ref}`, error);
    }
    return { output: await afterAction(browser, `Clicked ${args.ref}`) };
  },
});

export const browserTypeTool = defineTool({
  name: "browser_type",
  toolset: "browser",
  description: "Fill a text field (by ref) with text, replacing what it held; submit: true presses Enter afterwards.",
  schema: z.object({ ref, text: z.string().max(20_000), submit: z.boolean().optional() }),
  kind: "other",
  readOnly: false,
  title: (args) => `Type into ${args.ref}`,
  handler: async (args, ctx) => {
    await gateAction(ctx, "browser_type", `Type into ${args.ref} in the browser`);
    const browser = await sessionBrowser(ctx.sessionId);
    const page = await browser.page();
    await guardOutbound(ctx, { tool: "browser_type", destination: hostOf(page.url()), texts: [args.text] });
    try {
      const field = refLocator(page, args.ref);
      await field.fill(args.text);
      if (args.submit) await field.press("Enter");
    } catch (error) {
      throw actionError(`Type into ${args.ref}`, error);
    }
    return { output: await afterAction(browser, `Typed ${args.text.length} characters into ${args.ref}${args.submit ? " and pressed Enter" : ""}`) };
  },
});

export const browserPressTool = defineTool({
  name: "browser_press",
  toolset: "browser",
  description: "Press a key or chord on the focused element, e.g. Enter, Escape, ArrowDown, Tab, Control+a.",
  schema: z.object({ key: z.string().min(1).max(50) }),
  kind: "other",
  readOnly: false,
  title: (args) => `Press ${args.key}`,
  handler: async (args, ctx) => {
    await gateAction(ctx, "browser_press", `Press ${args.key} in the browser`);
    const browser = await sessionBrowser(ctx.sessionId);
    try {
      await (await browser.page()).keyboard.press(args.key);
    } catch (error) {
      throw actionError(`Press ${args.key}`, error);
    }
    return { output: await afterAction(browser, `Pressed ${args.key}`) };
  },
});

export const browserSelectTool = defineTool({
  name: "browser_select",
  toolset: "browser",
  description: "Choose option(s) of a <select> (by ref), by value or label.",
  schema: z.object({ ref, values: z.array(z.string().max(1000)).min(1).max(50) }),
  kind: "other",
  readOnly: false,
  title: (args) => `Select in ${args.ref}`,
  handler: async (args, ctx) => {
    await gateAction(ctx, "browser_select", `Choose ${args.values.join(", ")} in ${args.ref}`);
    const browser = await sessionBrowser(ctx.sessionId);
    let chosen: string[];
    try {
      chosen = await refLocator(await browser.page(), args.ref).selectOption(args.values);
    } catch (error) {
      throw actionError(`Select in ${args.ref}`, error);
    }
    return { output: await afterAction(browser, `Selected ${chosen.join(", ")} in ${args.ref}`) };
  },
});

export const browserHoverTool = defineTool({
  name: "browser_hover",
  toolset: "browser",
  description: "Move the mouse over an element (by ref), e.g. to open a menu or show a tooltip.",
  schema: z.object({ ref }),
  kind: "read",
  readOnly: true,
  title: (args) => `Hover ${args.ref}`,
  handler: async (args, ctx) => {
    const browser = await sessionBrowser(ctx.sessionId);
    try {
      await refLocator(await browser.page(), args.ref).hover();
    } catch (error) {
      throw actionError(`Hover ${args.ref}`, error);
    }
    return { output: await afterAction(browser, `Hovering over ${args.ref}`) };
  },
});

export const browserEvaluateTool = defineTool({
  name: "browser_evaluate",
  toolset: "browser",
  description: "Run a JavaScript expression in the page and return its JSON result. Asks the user in default mode; prefer snapshot and the other tools.",
  schema: z.object({ expression: z.string().min(1).max(20_000) }),
  kind: "execute",
  readOnly: false,
  title: (args) => `Evaluate ${args.expression.slice(0, 60)}`,
  handler: async (args, ctx) => {
    await gateAction(ctx, "browser_evaluate", `Run JavaScript in the page: ${args.expression.slice(0, 300)}`, { confirm: true });
    const browser = await sessionBrowser(ctx.sessionId);
    const page = await browser.page();
    await guardOutbound(ctx, { tool: "browser_evaluate", destination: hostOf(page.url()), texts: [args.expression] });
    let value: unknown;
    try {
      value = await page.evaluate(args.expression);
    } catch (error) {
      throw actionError("Evaluate", error);
    }
    const json = JSON.stringify(value) ?? "undefined";
    return { output: `Untrusted result from the page:\n${json.length > 20_000 ? `${json.slice(0, 20_000)}… [cut]` : json}${eventsText(browser.drainEvents())}` };
  },
});

function hostOf(url: string): string {
  try {
    return new URL(url).hostname || "the page";
  } catch {
    // expected: about:blank and the like have no host
    return "the page";
  }
}
