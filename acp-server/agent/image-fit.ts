// Images sized for the models that see: one larger than the chain's tightest API limit (1568 px
// for Anthropic, 2048 px for OpenAI, and a byte cap: model-vision.ts) is sent as a smaller copy,
// made in Chromium (tools/browser/image-scaler.ts, loaded only when an image is too large). The
// history and the tool card keep the original (the user sees it whole; a later model with
// larger limits gets the most it can take); only the request carries the copy. An image that
// cannot be scaled (no Chromium) is replaced by a note instead of making the provider refuse
// the whole call. Each image is measured and scaled once per session.
import { STRICTEST_IMAGE_LIMITS, type ImageLimits } from "../config/model-vision";
import type { ChatMessage, ModelRequest, UserPart } from "../providers/types";
import { imagePixelSize } from "../tools/image-size";
import type { ModelChoice } from "./model-choice";
import { imageKey, imagesOf, type ImageBytes } from "./text-only-request";

/** An image as it goes to the model: itself, a smaller copy, or a note saying why it is not sent. */
type Fitted = ImageBytes | { note: string };
export type ScaleImages = (jobs: { image: ImageBytes; maxSide: number; maxBytes: number }[]) => Promise<(ImageBytes | Error)[]>;

const bySession = new WeakMap<object, Map<string, Fitted>>();

const scaleWithChromium: ScaleImages = async (jobs) => (await import("../tools/browser/image-scaler")).scaleImages(jobs);

/** The limits every model that sees in `models` accepts; undefined when none sees (the text-only variant carries no image). */
export function chainImageLimits(models: readonly ModelChoice[]): ImageLimits | undefined {
  const seeing = models.filter((model) => model.vision);
  if (seeing.length === 0) return undefined;
  const limits = seeing.map((model) => model.imageLimits ?? STRICTEST_IMAGE_LIMITS);
  return { maxSide: Math.min(...limits.map((limit) => limit.maxSide)), maxBytes: Math.min(...limits.map((limit) => limit.maxBytes)) };
}

/** `request` with its images fitted to `limits`; the same object when every image fits. */
export async function fitImages(request: ModelRequest, limits: ImageLimits | undefined, owner: object, notice: (text: string) => void, scale: ScaleImages = scaleWithChromium): Promise<ModelRequest> {
  const images = request.messages.flatMap(imagesOf);
  if (!limits || images.length === 0) return request;
  let known = bySession.get(owner);
  if (!known) bySession.set(owner, (known = new Map<string, Fitted>()));
  const keyOf = (image: ImageBytes) => `${imageKey(image)}:${limits.maxSide}:${limits.maxBytes}`;
  const jobs: { key: string; image: ImageBytes; size: string }[] = [];
  for (const image of images) {
    const key = keyOf(image);
    if (known.has(key) || jobs.some((job) => job.key === key)) continue;
    const bytes = Buffer.from(image.data, "base64");
    const size = imagePixelSize(bytes, image.mimeType);
    // An unknown header is left to the provider (read_file and the tools check theirs). An
    // animated GIF goes as its first frame: OpenAI takes still GIFs only.
    if (!size || (Math.max(size.width, size.height) <= limits.maxSide && bytes.length <= limits.maxBytes && !animatedGif(image.mimeType, bytes))) known.set(key, image);
    else jobs.push({ key, image, size: `${size.width}×${size.height} px, ${Math.round(bytes.length / 1024)} KB` });
  }
  if (jobs.length > 0) {
    const results = await scale(jobs.map((job) => ({ image: job.image, maxSide: limits.maxSide, maxBytes: limits.maxBytes })));
    jobs.forEach((job, index) => {
      const result = results[index] ?? new Error("not scaled");
      if (!(result instanceof Error)) return known.set(job.key, result);
      const note = `[An image (${job.image.mimeType}, ${job.size}) is not shown: it is over this model's limit of ${limits.maxSide} px per side or ${Math.round(limits.maxBytes / 1024 / 1024)} MB (or an animated GIF) and could not be scaled down: ${result.message}.]`;
      notice(`An image was not sent to the model: it is over the model's limit (${job.size}) and could not be scaled down: ${result.message}.`);
      known.set(job.key, { note });
    });
  }
  const fitted = (image: ImageBytes) => known.get(keyOf(image)) ?? image;
  if (images.every((image) => fitted(image) === image)) return request;
  return { ...request, messages: request.messages.map((message) => fitMessage(message, fitted)) };
}

/** A GIF that loops (the NETSCAPE2.0 extension every animated GIF carries). */
function animatedGif(mimeType: string, bytes: Buffer): boolean {
  return mimeType === "image/gif" && bytes.includes("NETSCAPE2.0", 0, "latin1");
}

function fitMessage(message: ChatMessage, fitted: (image: ImageBytes) => Fitted): ChatMessage {
  if (message.role === "user" && message.content.some((part) => part.type === "image")) {
    return {
      ...message,
      content: message.content.map((part): UserPart => {
        if (part.type !== "image") return part;
        const fit = fitted(part);
        return "note" in fit ? { type: "text", text: fit.note } : { type: "image", ...fit };
      }),
    };
  }
  if (message.role === "tool" && message.images?.length) {
    const fits = message.images.map(fitted);
    const notes = fits.flatMap((fit) => ("note" in fit ? [fit.note] : []));
    const kept = fits.flatMap((fit) => ("note" in fit ? [] : [fit]));
    const { images: _original, ...rest } = message;
    return { ...rest, content: [message.content, ...notes].join("\n"), ...(kept.length > 0 ? { images: kept } : {}) };
  }
  return message;
}

/** One image fitted to `limits` (vision_analyze's, a description's); throws why when it cannot be. */
export async function fitOneImage(image: ImageBytes, limits: ImageLimits, owner: object, scale: ScaleImages = scaleWithChromium): Promise<ImageBytes> {
  const request: ModelRequest = { messages: [{ role: "user", content: [{ type: "image", ...image }] }], tools: [] };
  const fitted = await fitImages(request, limits, owner, () => {}, scale);
  const part = fitted.messages[0]?.role === "user" ? fitted.messages[0].content[0] : undefined;
  if (part?.type === "image") return { mimeType: part.mimeType, data: part.data };
  throw new Error(part?.type === "text" ? part.text.replace(/^\[|\]$/g, "") : "the image could not be prepared for the vision model");
}
