// Pure conversions of MCP results into what Hermes' tools return: text for the model (with
// images beside it), and the card content the editor shows (text, images, resource links and
// embedded resources passed through). `isError` makes the call fail.
import type { DisplayContent, ImagePart } from "../tools/context";
import type { ToolResult } from "../tools/registry";

/** One MCP content block, as the SDK types it (only the fields read here). */
export type McpContent =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "audio"; data: string; mimeType: string }
  | { type: "resource_link"; uri: string; name: string; mimeType?: string; title?: string; description?: string }
  | { type: "resource"; resource: McpResourceContents };

export type McpResourceContents = { uri: string; mimeType?: string; text?: string; blob?: string };

export interface McpCallResult {
  content?: McpContent[];
  structuredContent?: unknown;
  isError?: boolean;
}

/** Embedded text longer than this is cut for the card (the model gets it whole, up to the tool cap). */
const CARD_TEXT = 4_000;

export function toolResultFromMcp(result: McpCallResult): ToolResult {
  const lines: string[] = [];
  const images: ImagePart[] = [];
  const content: DisplayContent[] = [];
  for (const block of result.content ?? []) {
    switch (block.type) {
      case "text":
        lines.push(block.text);
        content.push({ type: "text", text: cut(block.text) });
        break;
      case "image":
        images.push({ mimeType: block.mimeType, data: block.data });
        lines.push(`[image ${images.length}: ${block.mimeType}, ${byteSize(block.data)}]`);
        content.push({ type: "image", mimeType: block.mimeType, data: block.data });
        break;
      case "audio":
        lines.push(`[audio: ${block.mimeType}, ${byteSize(block.data)}; audio is not passed to the model]`);
        content.push({ type: "text", text: `[audio: ${block.mimeType}]` });
        break;
      case "resource_link": {
        lines.push(`[resource link: ${block.uri}${block.name ? ` (${block.name})` : ""}${block.mimeType ? `, ${block.mimeType}` : ""}${block.description ? `: ${block.description}` : ""}]`);
        content.push({ type: "resource_link", uri: block.uri, name: block.name, ...optional(block, ["mimeType", "title", "description"]) });
        break;
      }
      case "resource": {
        lines.push(resourceText(block.resource));
        const { uri, mimeType, text, blob } = block.resource;
        content.push({ type: "resource", uri, ...(mimeType ? { mimeType } : {}), ...(typeof blob === "string" ? { blob } : { text: text ?? "" }) });
        break;
      }
      default:
        lines.push(`[unsupported content: ${String((block as { type?: unknown }).type)}]`);
    }
  }
  // Structured output is the whole answer when the server sent no content blocks.
  if (lines.length === 0 && result.structuredContent !== undefined) {
    const text = JSON.stringify(result.structuredContent, null, 2);
    lines.push(text);
    content.push({ type: "text", text: cut(text) });
  }
  const text = lines.join("\n") || (result.isError ? "The tool failed without saying why." : "(no output)");
  if (content.length === 0) content.push({ type: "text", text });
  return { output: text, content, ...(images.length ? { images } : {}), ...(result.isError ? { isError: true } : {}) };
}

/** A resource's contents as text for the model: text as is, binary named with its size. */
export function resourceText(resource: McpResourceContents): string {
  if (typeof resource.text === "string") return `[resource ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ""}]\n${resource.text}`;
  return `[resource ${resource.uri}: ${resource.mimeType ?? "binary"}, ${byteSize(resource.blob ?? "")}; binary content not shown]`;
}

function byteSize(base64: string): string {
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  const bytes = Math.floor((base64.length * 3) / 4) - padding;
  return bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${bytes} bytes`;
}

function cut(text: string): string {
  return text.length > CARD_TEXT ? `${text.slice(0, CARD_TEXT)}\n…` : text;
}

function optional<T extends object, K extends keyof T>(source: T, keys: K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const key of keys) if (source[key] !== undefined && source[key] !== null) out[key] = source[key];
  return out;
}
