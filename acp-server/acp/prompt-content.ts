// Turns the ACP prompt (text, images, file links, embedded resources) into the user
// message parts the model receives. Files are read (through the editor when it serves
// fs/*, so unsaved buffers count) and inlined under a header naming the file.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import { fileURLToPath } from "node:url";
import type { UserPart } from "../providers/types";
import type { FileAccess } from "../tools/context";

/** Largest file inlined from a resource link; the rest is cut with a note. */
export const MAX_INLINE_BYTES = 512 * 1024;

export async function toUserParts(blocks: acp.ContentBlock[], files: FileAccess): Promise<UserPart[]> {
  const parts: UserPart[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        parts.push({ type: "text", text: block.text });
        break;
      case "image":
        parts.push({ type: "image", mimeType: block.mimeType, data: block.data });
        break;
      case "resource_link":
        parts.push(await linkedResource(block, files));
        break;
      case "resource":
        parts.push(embeddedResource(block.resource));
        break;
      case "audio":
        parts.push({ type: "text", text: "[An audio clip was attached; this agent cannot listen to audio.]" });
        break;
    }
  }
  return parts;
}

async function linkedResource(link: acp.ResourceLink, files: FileAccess): Promise<UserPart> {
  if (!link.uri.startsWith("file://")) {
    return { type: "text", text: `[Linked resource: ${link.title ?? link.name} <${link.uri}>]` };
  }
  let filePath: string;
  try {
    filePath = fileURLToPath(link.uri);
  } catch {
    // expected: a file:// URI Node cannot turn into a path: the model is told the link is invalid.
    return { type: "text", text: `[Linked file with an invalid URI: ${link.uri}]` };
  }
  try {
    const text = await files.readText(filePath);
    return { type: "text", text: fileBlock(filePath, capText(text)) };
  } catch (error) {
    return { type: "text", text: `[Linked file ${filePath} could not be read: ${(error as Error).message}]` };
  }
}

function embeddedResource(resource: acp.EmbeddedResourceResource): UserPart {
  const name = resource.uri.startsWith("file://") ? safePath(resource.uri) : resource.uri;
  if ("text" in resource) return { type: "text", text: fileBlock(name, capText(resource.text)) };
  if (resource.mimeType?.startsWith("image/")) return { type: "image", mimeType: resource.mimeType, data: resource.blob };
  return { type: "text", text: `[Attached binary resource ${name} (${resource.mimeType ?? "unknown type"}) is not shown.]` };
}

function fileBlock(name: string, text: string): string {
  return `<file path="${name}">\n${text}${text.endsWith("\n") ? "" : "\n"}</file>`;
}

function capText(text: string): string {
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes <= MAX_INLINE_BYTES) return text;
  const cut = Buffer.from(text, "utf8").subarray(0, MAX_INLINE_BYTES).toString("utf8").replace(/\uFFFD$/, "");
  return `${cut}\n[… truncated: the file has ${bytes} bytes; only the first ${MAX_INLINE_BYTES} are shown. Use read_file with offset to see more.]`;
}

function safePath(uri: string): string {
  try {
    return fileURLToPath(uri);
  } catch {
    // expected: not a file URI Node can convert: the header names the URI as given.
    return uri;
  }
}
