// Images in a compressed history. Compression keeps the first exchange verbatim and summarizes
// the middle; an image there would otherwise ride along in every later request (the head) or
// vanish without a word (the middle). Instead each one becomes a short text saying what it was,
// so the model knows an image was there and that the user still sees it. Pure and deterministic:
// a session restored from its journal rebuilds the same history (compacted-history.ts).
import type { ChatMessage, UserPart } from "../providers/types";

type Image = { mimeType: string; data: string };

/** "image/png, 48 KB": what an image is, without its bytes. */
export function imageFacts(image: Image): string {
  const bytes = Math.floor((image.data.length * 3) / 4);
  const size = bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${image.mimeType}, ${size}`;
}

/** The text that stands for an image the compression took out of the model's context. */
export function compressedImageText(image: Image, from: "user" | "tool"): string {
  const who = from === "user" ? "pasted by the user" : "returned by the tool";
  return `[image: ${imageFacts(image)}, ${who}; removed from your context by compression (the user still sees it; the summary describes the conversation around it). Ask for it again if you need to look at it.]`;
}

/** `messages` with every image replaced by its text (user parts) or a note after the output (tool results). */
export function imagesAsText(messages: ChatMessage[]): ChatMessage[] {
  return messages.map((message): ChatMessage => {
    if (message.role === "user" && message.content.some((part) => part.type === "image")) {
      return { ...message, content: message.content.map((part): UserPart => (part.type === "image" ? { type: "text", text: compressedImageText(part, "user") } : part)) };
    }
    if (message.role === "tool" && message.images?.length) {
      const { images, ...rest } = message;
      return { ...rest, content: `${message.content}\n${images.map((image) => compressedImageText(image, "tool")).join("\n")}` };
    }
    return message;
  });
}
