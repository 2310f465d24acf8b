// A request for a model that takes text only (ModelChoice.vision false): every image in it, a
// pasted one in a prompt or one a tool returned (read_file, a screenshot, MCP), becomes text, so
// the provider never answers HTTP 400 and ends the turn. An image the vision model described
// (image-descriptions.ts) becomes its description; any other one a note naming vision_analyze.
// The history keeps the images: a later model that sees gets them.
import { createHash } from "node:crypto";
import type { ChatMessage, ModelRequest, UserPart } from "../providers/types";

export interface ImageBytes {
  mimeType: string;
  data: string;
}

/** Descriptions by image key (imageKey): what the vision model said each image shows. */
export type ImageDescriptions = ReadonlyMap<string, string>;

/** A stable key for an image's bytes, so one image is described once however often it is sent. */
export function imageKey(image: ImageBytes): string {
  return createHash("sha256").update(image.mimeType).update("\0").update(image.data).digest("hex");
}

export function hasImages(messages: readonly ChatMessage[]): boolean {
  return messages.some((message) => imagesOf(message).length > 0);
}

export function imagesOf(message: ChatMessage): ImageBytes[] {
  if (message.role === "tool") return message.images ?? [];
  if (message.role === "user") return message.content.flatMap((part) => (part.type === "image" ? [part] : []));
  return [];
}

/** `request` with its images as text; the same object when it has none. */
export function textOnlyRequest(request: ModelRequest, descriptions: ImageDescriptions): ModelRequest {
  if (!hasImages(request.messages)) return request;
  return { ...request, messages: request.messages.map((message) => textOnlyMessage(message, descriptions)) };
}

function textOnlyMessage(message: ChatMessage, descriptions: ImageDescriptions): ChatMessage {
  if (message.role === "user" && message.content.some((part) => part.type === "image")) {
    return { ...message, content: message.content.map((part): UserPart => (part.type === "image" ? { type: "text", text: imageText(part, descriptions, "The user attached") } : part)) };
  }
  if (message.role === "tool" && message.images?.length) {
    const { images, ...rest } = message;
    return { ...rest, content: [message.content, ...images.map((image) => imageText(image, descriptions, "The tool returned"))].join("\n") };
  }
  return message;
}

function imageText(image: ImageBytes, descriptions: ImageDescriptions, who: string): string {
  const what = `an image (${image.mimeType}, ${Math.max(1, Math.round((image.data.length * 3) / 4 / 1024))} KB)`;
  const description = descriptions.get(imageKey(image));
  if (description) return `[${who} ${what}; this model cannot see images, so the vision model described it: ${description}]`;
  return `[${who} ${what}, not shown: this model cannot see images and no vision model is configured (auxiliary_vision in config). vision_analyze can answer questions about an image file once one is.]`;
}
