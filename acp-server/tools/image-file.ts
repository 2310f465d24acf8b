// read_file on an image (PNG, JPEG, GIF, WebP): the bytes go to the model as an image beside a
// short text, instead of the "binary file" refusal. Read from the pinned real file (no-follow),
// as the policy judged it; capped at the providers' common per-image limit.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { ToolResult } from "./registry";
import { ToolError } from "./registry";
import { openPinnedForRead, type PinnedTarget } from "../util/no-follow-io";

const IMAGE_TYPES: Record<string, string> = { ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp" };
/** Anthropic's per-image limit (the tightest of the three APIs); not downscaled here. */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export function imageMimeType(file: string): string | undefined {
  return IMAGE_TYPES[path.extname(file).toLowerCase()];
}

export function readImageFile(pin: PinnedTarget, shown: string, mimeType: string): ToolResult {
  const bytes = openPinnedForRead(pin, (fd, info) => {
    if (!info.isFile()) throw new ToolError(`${shown} is not a regular file.`);
    if (info.size > MAX_IMAGE_BYTES) {
      throw new ToolError(`${shown} is an image of ${Math.round(info.size / 1024)} KB, over the ${MAX_IMAGE_BYTES / 1024 / 1024} MB a model accepts; scale it down (e.g. with ImageMagick in the terminal) and read the smaller copy.`);
    }
    return readFileSync(fd);
  });
  const image = { mimeType, data: bytes.toString("base64") };
  return {
    output: `Image ${shown} (${mimeType}, ${Math.max(1, Math.round(bytes.length / 1024))} KB), attached as an image. If you cannot see it, your model has no vision.`,
    images: [image],
    content: [{ type: "image", ...image }],
    locations: [{ path: pin.real }],
  };
}
