// vision_analyze: a question about an image, answered in text by the model that sees (the
// auxiliary_vision model; by default the auxiliary or main model when it has vision). The image
// is a workspace file (read like read_file: the same permission, pinned no-follow read and size
// checks), an image URL (fetched like web_fetch: the same network guard, host approval and
// caps) or the session's latest browser screenshot. The answer is the vision model's words
// about untrusted content: it goes to the main model as a tool result like any page text.
import * as z from "zod";
import { containsSecret } from "../util/redact";
import type { ImagePart, ToolContext } from "./context";
import { checkImageBytes, IMAGE_MIME_TYPES, imageMimeType, MAX_IMAGE_BYTES, readImageFile } from "./image-file";
import { latestScreenshot } from "./browser/latest-screenshot";
import { guardOutbound } from "./outbound-guard";
import { displayPath, resolvePath } from "./paths";
import { pinTarget } from "./pinned-target";
import { defineTool, ToolError } from "./registry";
import { checkUrl, guardedFetch } from "./web/guarded-fetch";
import { proxyFor } from "./web/proxy";
import { webSettings } from "./web/web-settings";
import { hostApprover } from "./web-fetch";

const schema = z.object({
  question: z.string().min(1).max(4000).describe("What to find out about the image, e.g. \"What error does the dialog show?\"."),
  path: z.string().min(1).optional().describe("An image file (PNG, JPEG, GIF, WebP), absolute or relative to the working directory."),
  url: z.string().min(1).max(8192).optional().describe("An http(s) URL of an image."),
  screenshot: z.boolean().optional().describe("true: the latest browser_screenshot of this session."),
});

type Args = z.infer<typeof schema>;

export const visionAnalyzeTool = defineTool({
  name: "vision_analyze",
  toolset: "vision",
  kind: "read",
  readOnly: true,
  description:
    "Ask a model that can see a question about an image: a workspace file (path), an image URL (url) or the latest browser screenshot (screenshot: true); give exactly one. Returns its answer as text. Use it when you cannot see images yourself.",
  schema,
  title: (args, cwd) => `Look at ${args.path ? displayPath(cwd, resolvePath(cwd, args.path)) : args.url ? args.url : "the screenshot"}`,
  handler: async (args, ctx) => {
    const sources = [args.path, args.url, args.screenshot ? true : undefined].filter((source) => source !== undefined);
    if (sources.length !== 1) throw new ToolError("Give exactly one of path, url or screenshot: true.");
    const look = ctx.lookAtImage;
    if (!look) {
      throw new ToolError("No model that can see images is configured: set auxiliary_vision in config.yaml (a model with vision, e.g. {provider: anthropic, name: claude-haiku-4-5}), or give the main model `vision: true` if it has vision.");
    }
    const { image, shown } = await imageOf(args, ctx);
    const answer = await look(image, args.question).catch((error: unknown) => {
      throw new ToolError(`The vision model could not answer about ${shown}: ${error instanceof Error ? error.message : String(error)}`);
    });
    return { output: `${shown}: ${answer || "(the vision model gave no answer)"}` };
  },
});

async function imageOf(args: Args, ctx: ToolContext): Promise<{ image: ImagePart; shown: string }> {
  if (args.path) return fileImage(args.path, ctx);
  if (args.url) return urlImage(args.url, ctx);
  const shot = latestScreenshot(ctx.sessionId);
  if (!shot) throw new ToolError("This session has no browser screenshot yet: take one with browser_screenshot first.");
  return { image: { mimeType: shot.mimeType, data: shot.data }, shown: "The latest screenshot" };
}

async function fileImage(file: string, ctx: ToolContext): Promise<{ image: ImagePart; shown: string }> {
  const absolute = resolvePath(ctx.cwd, file);
  const shown = displayPath(ctx.cwd, absolute);
  const mimeType = imageMimeType(absolute);
  if (!mimeType) throw new ToolError(`${shown} is not an image vision_analyze reads (PNG, JPEG, GIF or WebP, by its extension).`);
  // The real file, resolved once: what the policy judges and the only file read (as read_file).
  const pin = pinTarget(absolute);
  if (!(await ctx.requestPermission({ action: "read", title: `Read ${shown}`, paths: [absolute], resolved: [pin.real] }))) {
    throw new ToolError(`The user did not allow reading ${shown}.`);
  }
  const image = readImageFile(pin, shown, mimeType).images?.[0];
  if (!image) throw new ToolError(`${shown} could not be read as an image.`);
  return { image, shown };
}

async function urlImage(url: string, ctx: ToolContext): Promise<{ image: ImagePart; shown: string }> {
  checkUrl(url);
  if (containsSecret(url)) throw new ToolError("The URL contains what looks like a credential (a key or token); Hermes does not send it to a web site.");
  await guardOutbound(ctx, { tool: "vision_analyze", destination: new URL(url).hostname, texts: [url] });
  const settings = webSettings();
  const fetched = await guardedFetch(
    url,
    {
      timeoutMs: settings.config.timeout * 1000,
      maxBytes: Math.min(MAX_IMAGE_BYTES, Math.floor(settings.config.max_mb * 1024 * 1024)),
      maxRedirects: settings.config.max_redirects,
      allowPrivate: settings.allowPrivate,
      proxyFor: (target) => proxyFor(target, { configured: settings.config.proxy, env: settings.env }),
    },
    { signal: ctx.signal, approve: hostApprover(ctx) },
  );
  if (fetched.status < 200 || fetched.status >= 300) throw new ToolError(`${url} answered HTTP ${fetched.status} ${fetched.statusText}`.trim());
  // A larger download is refused, not cut (a cut image does not decode).
  if (fetched.truncated) throw new ToolError(`${url} is larger than the ${Math.round(MAX_IMAGE_BYTES / 1024 / 1024)} MB an image may be (or web.max_mb).`);
  const mimeType = fetched.contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (!IMAGE_MIME_TYPES.has(mimeType)) throw new ToolError(`${url} is not a PNG, JPEG, GIF or WebP image (its type is ${mimeType || "not given"}).`);
  checkImageBytes(fetched.body, url, mimeType);
  return { image: { mimeType, data: fetched.body.toString("base64") }, shown: url };
}
