// browser_upload: files into a page's file input, or the file chooser an upload button opens. The files' bytes leave for the page's site, so
// every path passes the permission policy as an upload (security/upload-policy.ts): the
// workspace goes without a question, anything outside it is asked each time (refused in Plan and
// Don't ask mode), credentials never go. What is uploaded is the real file that was judged, read
// once right after the answer, never a path the page could re-resolve later.
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import * as z from "zod";
import { guardOutbound } from "../outbound-guard";
import { displayPath, resolvePath } from "../paths";
import { pinTarget } from "../pinned-target";
import { defineTool, ToolError } from "../registry";
import { gateAction } from "./browser-gate";
import { eventsText, REF_PATTERN, refLocator } from "./page-text";
import { sessionBrowser } from "./session-browser";

/** Playwright's own limit for files handed over as bytes. */
const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
/** Text files up to this size are also checked for secrets the session has seen. */
const SECRET_CHECK_BYTES = 1024 * 1024;

const MIME_TYPES: Record<string, string> = {
  ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp", ".svg": "image/svg+xml",
  ".pdf": "application/pdf", ".json": "application/json", ".csv": "text/csv", ".txt": "text/plain", ".md": "text/markdown", ".html": "text/html", ".zip": "application/zip",
};

export const browserUploadTool = defineTool({
  name: "browser_upload",
  toolset: "browser",
  description:
    "Put files into a file input, or the file chooser a button opens (by ref from browser_snapshot), as a user choosing them would. Paths are relative to the workspace; " +
    "files outside it are asked about each time, and credentials (.env, ~/.ssh, key stores) are never uploaded.",
  schema: z.object({
    ref: z.string().regex(REF_PATTERN, "a ref from browser_snapshot, like e12").describe("The file input's ref from the latest browser_snapshot, e.g. e12."),
    paths: z.array(z.string().min(1).max(4096)).min(1).max(20).describe("Files to upload, relative to the workspace or absolute."),
  }),
  kind: "other",
  readOnly: false,
  title: (args) => `Upload ${args.paths.map((p) => path.basename(p)).join(", ")} to ${args.ref}`,
  handler: async (args, ctx) => {
    await gateAction(ctx, "browser_upload", `Upload ${args.paths.length} file(s) into ${args.ref} in the browser`);
    const browser = await sessionBrowser(ctx.sessionId);
    const page = await browser.page();
    const destination = hostOf(page.url());
    const absolute = args.paths.map((target) => resolvePath(ctx.cwd, target));
    const shown = absolute.map((target) => displayPath(ctx.cwd, target));
    const pins = absolute.map(pinTarget);
    const allowed = await ctx.requestPermission({
      action: "read",
      title: `Upload ${shown.join(", ")} to ${destination}`,
      paths: absolute,
      resolved: pins.map((pin) => pin.real),
      upload: { destination },
    });
    if (!allowed) throw new ToolError(`The user did not allow uploading ${shown.join(", ")} to ${destination}.`);

    let total = 0;
    const files: { name: string; mimeType: string; buffer: Buffer }[] = [];
    for (const [index, pin] of pins.entries()) {
      const info = await stat(pin.real).catch(() => undefined); // expected: a missing file is reported just below
      if (!info?.isFile()) throw new ToolError(`${shown[index]} is not a file${info ? "" : " (not found)"}; nothing was uploaded.`);
      total += info.size;
      if (total > MAX_UPLOAD_BYTES) throw new ToolError(`The files come to more than ${MAX_UPLOAD_BYTES / (1024 * 1024)} MB; nothing was uploaded.`);
      const buffer = await readFile(pin.real);
      files.push({ name: path.basename(absolute[index]!), mimeType: MIME_TYPES[path.extname(pin.real).toLowerCase()] ?? "application/octet-stream", buffer });
    }
    const texts = files.filter((file) => file.buffer.length <= SECRET_CHECK_BYTES && !file.buffer.includes(0)).map((file) => file.buffer.toString("utf8"));
    await guardOutbound(ctx, { tool: "browser_upload", destination, texts });
    const target = refLocator(page, args.ref);
    try {
      // A file input (or its label) takes the files directly; anything else (an "Upload" button
      // that opens the chooser from script) is clicked, and the chooser it opens gets them.
      const isFileInput = await target.evaluate((el: unknown) => {
        const node = el as { tagName: string; type?: string };
        return (node.tagName === "INPUT" && node.type === "file") || node.tagName === "LABEL";
      });
      if (isFileInput) await target.setInputFiles(files);
      else {
        const [chooser] = await Promise.all([page.waitForEvent("filechooser", { timeout: 5_000 }), target.click()]);
        await chooser.setFiles(files);
      }
    } catch (error) {
      const text = error instanceof Error ? error.message.split("\n")[0] : String(error);
      throw new ToolError(`Upload into ${args.ref} failed: ${text}. The ref must be a file input, its label, or a button that opens a file chooser; take a new browser_snapshot.`);
    }
    return { output: `Put ${files.map((file) => `${file.name} (${file.buffer.length} bytes)`).join(", ")} into ${args.ref} on ${page.url()}. The page has not submitted them yet: click its upload or submit button.${eventsText(browser.drainEvents())}` };
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
