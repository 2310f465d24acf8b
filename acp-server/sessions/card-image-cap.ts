// How much of a tool card's images the journal keeps. A screenshot is journaled twice: in the
// tool result (the model's history needs it until a compression) and in the card (so a load
// shows it). A card image is kept whole up to the cap, enough for any viewport screenshot (a
// 1280×720 page is 50-400 KB); a full-page capture of a long page can run to megabytes, and every
// session/load would send it again, so such a card keeps a line saying it was not kept. Pure.
import type { DisplayContent } from "../tools/context";
import { imageFacts } from "./image-placeholder";

/** Base64 characters of one card image the journal keeps (about 1.5 MB of image). */
export const MAX_JOURNALED_CARD_IMAGE_CHARS = 2 * 1024 * 1024;

export function capCardImage(item: DisplayContent, maxChars = MAX_JOURNALED_CARD_IMAGE_CHARS): DisplayContent {
  if (item.type !== "image" || item.data.length <= maxChars) return item;
  return { type: "text", text: `Screenshot not kept (${imageFacts(item)}): too large to keep in the session's history. The model saw it when it was taken.` };
}
