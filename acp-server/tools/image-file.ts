// read_file on an image (PNG, JPEG, GIF, WebP): the bytes go to the model as an image beside a
// short text, instead of the "binary file" refusal. Read from the pinned real file (no-follow),
// as the policy judged it. The file is kept whole (the tool card shows it); what a model's API
// cannot take is scaled down when the request is made (agent/image-fit.ts).
import { readFileSync } from "node:fs";
import path from "node:path";
import type { ToolResult } from "./registry";
import { ToolError } from "./registry";
import { imagePixelSize } from "./image-size";
import { openPinnedForRead, type PinnedTarget } from "../util/no-follow-io";

const IMAGE_TYPES: Record<string, string> = { ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp" };
/**
 * The largest image read: OpenAI's per-image limit. Anthropic's (5 MB) is met by the scaled copy
 * a request carries; a larger file would only bloat the session's journal.
 */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
/**
 * The largest side read: what a canvas scales comfortably (Anthropic refuses over 8000 px with an
 * HTTP 400, so every API gets a copy of at most 2048 px: agent/image-fit.ts).
 */
const MAX_IMAGE_SIDE = 12_000;

export function imageMimeType(file: string): string | undefined {
  return IMAGE_TYPES[path.extname(file).toLowerCase()];
}

/** The image mime types a model takes, by name (vision_analyze checks a fetched image's type). */
export const IMAGE_MIME_TYPES: ReadonlySet<string> = new Set(Object.values(IMAGE_TYPES));

/** Throws what a provider would refuse mid-turn: over the byte cap, a header that does not match, too many pixels. */
export function checkImageBytes(bytes: Buffer, shown: string, mimeType: string): void {
  if (bytes.length > MAX_IMAGE_BYTES) {
    throw new ToolError(`${shown} is an image of ${Math.round(bytes.length / 1024)} KB, over the ${MAX_IMAGE_BYTES / 1024 / 1024} MB Hermes reads.`);
  }
  const size = imagePixelSize(bytes, mimeType);
  // A file whose header is not the image its name says would be refused by the provider mid-turn.
  if (!size || size.width === 0 || size.height === 0) throw new ToolError(`${shown} is not a readable ${mimeType} image (its header does not match).`);
  if (Math.max(size.width, size.height) > MAX_IMAGE_SIDE) {
    throw new ToolError(`${shown} is ${size.width}×${size.height} px, over the ${MAX_IMAGE_SIDE} px per side Hermes scales; scale it down (e.g. with ImageMagick in the terminal) and read the smaller copy.`);
  }
}

export function readImageFile(pin: PinnedTarget, shown: string, mimeType: string): ToolResult {
  const bytes = openPinnedForRead(pin, (fd, info) => {
    if (!info.isFile()) throw new ToolError(`${shown} is not a regular file.`);
    if (info.size > MAX_IMAGE_BYTES) {
      throw new ToolError(`${shown} is an image of ${Math.round(info.size / 1024)} KB, over the ${MAX_IMAGE_BYTES / 1024 / 1024} MB Hermes reads; scale it down (e.g. with ImageMagick in the terminal) and read the smaller copy.`);
    }
    return readFileSync(fd);
  });
  checkImageBytes(bytes, shown, mimeType);
  const image = { mimeType, data: bytes.toString("base64") };
  return {
    output: `Image ${shown} (${mimeType}, ${Math.max(1, Math.round(bytes.length / 1024))} KB), attached as an image. If you cannot see it, your model has no vision.`,
    images: [image],
    content: [{ type: "image", ...image }],
    locations: [{ path: pin.real }],
  };
}
