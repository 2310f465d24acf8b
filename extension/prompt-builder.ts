// The user's text and attachments → ACP content blocks for `session/prompt`. Text first, then
// one block per attachment (the order the panel's replay expects). No vscode import: reading a
// document's text is passed in.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import path from "node:path";
import type { Attachment, AttachmentSummary } from "../common/panel-state/types";

export interface PromptContext {
  promptCapabilities: acp.PromptCapabilities | undefined;
  /** The current text of a document (unsaved edits included). */
  readText(uri: string): Promise<string>;
}

export interface BuiltPrompt {
  blocks: acp.ContentBlock[];
  /** Attachments that could not be sent, said in words for a notice. */
  skipped: string[];
}

export async function buildPrompt(text: string, attachments: readonly Attachment[], context: PromptContext): Promise<BuiltPrompt> {
  const blocks: acp.ContentBlock[] = [];
  const skipped: string[] = [];
  if (text) blocks.push({ type: "text", text });
  const embedded = context.promptCapabilities?.embeddedContext === true;
  for (const attachment of attachments) {
    switch (attachment.kind) {
      case "file":
        if (attachment.embed) {
          const body = await context.readText(attachment.uri);
          blocks.push(embedded ? resource(attachment.uri, body, attachment.uri) : fenced(attachment.name, body));
        } else {
          blocks.push({ type: "resource_link", uri: attachment.uri, name: attachment.name });
        }
        break;
      case "selection": {
        const uri = `${attachment.uri}#L${attachment.startLine}-${attachment.endLine}`;
        blocks.push(embedded ? resource(uri, attachment.text, attachment.uri) : fenced(`${attachment.name}:${attachment.startLine}-${attachment.endLine}`, attachment.text));
        break;
      }
      case "image":
        if (context.promptCapabilities?.image) blocks.push({ type: "image", mimeType: attachment.mimeType, data: attachment.data });
        else skipped.push(`The agent does not accept images, so ${attachment.name} was not sent.`);
        break;
    }
  }
  return { blocks, skipped };
}

export function summarize(attachments: readonly Attachment[]): AttachmentSummary[] {
  return attachments.map((a) => ({ kind: a.kind, name: a.name }));
}

/** A prompt that starts with `/name` of a command the agent offers. */
export function isCommandPrompt(text: string, commands: readonly { name: string }[]): boolean {
  const match = /^\/([\w-]+)(\s|$)/.exec(text.trimStart());
  return !!match && commands.some((c) => c.name === match[1]);
}

/** `fileUri` (without a line fragment) names the type. */
function resource(uri: string, text: string, fileUri: string): acp.ContentBlock {
  return { type: "resource", resource: { uri, text, mimeType: mimeTypeOf(fileUri) } };
}

function fenced(label: string, text: string): acp.ContentBlock {
  return { type: "text", text: `${label}:\n\`\`\`\n${text}\n\`\`\`` };
}

const MIME_BY_EXTENSION: Record<string, string> = {
  ".ts": "text/x-typescript",
  ".tsx": "text/x-typescript",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".cjs": "text/javascript",
  ".json": "application/json",
  ".md": "text/markdown",
  ".py": "text/x-python",
  ".html": "text/html",
  ".css": "text/css",
  ".yaml": "text/yaml",
  ".yml": "text/yaml",
};

export function mimeTypeOf(name: string): string {
  return MIME_BY_EXTENSION[path.extname(name).toLowerCase()] ?? "text/plain";
}
