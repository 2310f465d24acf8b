// The images of tool cards (browser_screenshot, read_file on an image): which blocks the panel
// shows and the data URL it shows them from. Pure.
//
// Only raster types go into an <img>: an SVG data URL cannot run script inside an <img>, but it
// is also what a page could use to draw fake UI (a "permission" prompt) into the card, and no
// Hermes tool produces one. The data must be plain base64 so the URL cannot be bent into
// something else by its content.
import type { ToolCallContent } from "../../common/acp-types";

const SHOWN_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The data URL of an image block the card may show, or undefined (another type, or data that is not base64). */
export function imageSource(block: { mimeType: string; data: string }): string | undefined {
  const mimeType = block.mimeType.toLowerCase();
  if (!SHOWN_TYPES.has(mimeType) || block.data.length === 0 || !BASE64.test(block.data)) return undefined;
  return `data:${mimeType};base64,${block.data}`;
}

/** Whether a card's content holds an image it shows (such a card starts open, like an edit: the image is the result). */
export function hasShownImage(content: readonly ToolCallContent[]): boolean {
  return content.some((item) => item.type === "content" && item.content.type === "image" && imageSource(item.content) !== undefined);
}

/** "PNG, 48 KB": what the image is, for its caption and the alt text of an image with no better name. */
export function imageLabel(block: { mimeType: string; data: string }): string {
  const kind = (block.mimeType.split("/")[1] ?? "image").toUpperCase();
  const bytes = Math.floor((block.data.length * 3) / 4) - (block.data.endsWith("==") ? 2 : block.data.endsWith("=") ? 1 : 0);
  const size = bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${kind}, ${size}`;
}
