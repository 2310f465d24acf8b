// FileAccess through the editor (fs/read_text_file, fs/write_text_file) when the client
// advertised them: reads see unsaved buffers and the editor sees every write. Falls back
// to the local disk for whichever half the client does not serve. What the editor answers
// is read here too: a refusal's reason, and a write the user accepted only in part.
import * as acp from "@agentclientprotocol/sdk/unstable";
import { existsSync } from "node:fs";
import path from "node:path";
import { FileNotFoundError, type FileAccess, type WriteOutcome } from "../tools/context";
import { LocalFileAccess } from "../tools/local-files";
import { checkStillPinned, pinTarget } from "../tools/pinned-target";
import { entryIdentity, HeldEntry, HeldFolder, PathMovedError, type PinnedTarget } from "../util/no-follow-io";
import { AgentError } from "../util/agent-error";
import { REVIEW_META, ReviewMetaSchema, type ReviewHunk } from "../../common/review-meta";

export class ClientFileAccess implements FileAccess {
  private readonly local = new LocalFileAccess();

  constructor(
    private readonly client: acp.AgentContext,
    private readonly sessionId: string,
    private readonly capabilities: acp.FileSystemCapabilities,
  ) {}

  get viaEditor(): boolean {
    return this.capabilities.readTextFile === true;
  }

  /**
   * The editor is asked for the file the path really is (links resolved, dangling ones too): the
   * editor follows links itself, so the path it gets must already be the one the policy judged.
   */
  async readText(file: string, pin?: PinnedTarget): Promise<string> {
    if (!this.capabilities.readTextFile) return this.local.readText(file, pin);
    const target = resolvedForEditor(file, pin);
    // Held open while the editor reads: a swap and a swap back cannot hide behind a reused inode.
    const held = HeldEntry.open(target);
    try {
      const response = await this.client.request(acp.methods.client.fs.readTextFile, { sessionId: this.sessionId, path: target });
      // The editor opens by name and follows links: content read while the name was swapped is dropped.
      if (!held.unchanged()) throw new PathMovedError(target, "it was replaced while the editor read it");
      return response.content;
    } catch (error) {
      if (error instanceof PathMovedError) throw error;
      // Clients report a missing file in their own words; the disk tells us which case it is.
      if (!existsSync(file)) throw new FileNotFoundError(file);
      throw new AgentError("internal", `The editor refused or failed to read ${file}: ${clientErrorText(error)}`, { path: file }, { cause: error });
    } finally {
      held.close();
    }
  }

  async writeText(file: string, content: string, pin?: PinnedTarget): Promise<WriteOutcome | void> {
    if (!this.capabilities.writeTextFile) return this.local.writeText(file, content, pin);
    // A dangling link is resolved to where it leads, so the editor cannot create a file outside
    // through it: that real path is what the policy judged (and asked about).
    const target = resolvedForEditor(file, pin);
    // Not every client creates missing folders; made here no-follow, inside the folder the policy judged.
    HeldFolder.open(path.dirname(target), true).close();
    identityBefore(target);
    let response: acp.WriteTextFileResponse | void;
    try {
      response = await this.client.request(acp.methods.client.fs.writeTextFile, { sessionId: this.sessionId, path: target, content });
    } catch (error) {
      throw new AgentError("internal", `The editor refused or failed to write ${file}: ${clientErrorText(error)}`, { path: file }, { cause: error });
    }
    // Too late to stop, but never reported as done: a link at the name now means the editor may have followed it.
    if (entryIdentity(target) === "symlink") throw new PathMovedError(target, "it became a symlink while the editor wrote it; the editor may have written through it");
    return reviewOutcome(response?._meta);
  }
}

/** The real path to hand to the editor: the pin when the name still leads there (else PathMovedError), the resolved path otherwise. */
function resolvedForEditor(file: string, pin: PinnedTarget | undefined): string {
  if (!pin) return pinTarget(file).real;
  checkStillPinned(file, pin);
  return pin.real;
}

/** The name's identity before the editor uses it; a symlink there (the real path had none) refuses at once. */
function identityBefore(target: string): string {
  const identity = entryIdentity(target);
  if (identity === "symlink") throw new PathMovedError(target, "it is now a symlink");
  return identity;
}

// What a client's error answer says, in its own words. Clients often answer a refused request
// with the generic JSON-RPC message ("Internal error") and put the real reason (the user or the
// editor's policy refused it) in `data`: the model should see that reason, not the label.
const GENERIC = /^(internal error|invalid params|invalid request|method not found)\.?$/i;

export function clientErrorText(error: unknown): string {
  const message = String((error as { message?: unknown })?.message ?? error).trim();
  const data = (error as { data?: unknown })?.data;
  const detail = dataText(data);
  if (!detail) return message;
  if (!message || GENERIC.test(message)) return detail;
  return message.includes(detail) ? message : `${message}: ${detail}`;
}

function dataText(data: unknown): string | undefined {
  if (typeof data === "string") return data.trim() || undefined;
  if (!data || typeof data !== "object") return undefined;
  const record = data as Record<string, unknown>;
  for (const key of ["reason", "message", "details", "detail", "error"]) {
    const value = record[key];
    if (typeof value === "string" && value.trim()) return value.trim();
  }
  return undefined;
}

// What the model is told after the editor's user accepted only part of an edit: the text names
// each change that was written and each that was not, so the model neither assumes its whole
// edit landed nor re-applies what the user refused.
/** Hunks listed in full before the rest are only counted. */
const MAX_LISTED = 20;
const MAX_QUOTE = 120;

/** The note for the tool's result; undefined when the whole edit landed (or the meta is not a review). */
export function reviewOutcome(meta: Record<string, unknown> | null | undefined): WriteOutcome | undefined {
  const parsed = ReviewMetaSchema.safeParse(meta?.[REVIEW_META]);
  if (!parsed.success) return undefined;
  const { accepted, rejected, hunks } = parsed.data;
  if (rejected <= 0) return undefined;
  const lines = [
    `The user reviewed this edit and accepted ${accepted} of ${accepted + rejected} hunks; only the accepted hunks were written, the rejected ones were not.`,
  ];
  if (hunks?.length) {
    const listed = hunks.slice(0, MAX_LISTED);
    const written = listed.filter((h) => h.accepted);
    const refused = listed.filter((h) => !h.accepted);
    if (written.length) lines.push(`Written: ${written.map(describeHunk).join("; ")}.`);
    if (refused.length) lines.push(`Not written (rejected by the user): ${refused.map(describeHunk).join("; ")}.`);
    if (hunks.length > MAX_LISTED) lines.push(`(${hunks.length - MAX_LISTED} more hunks not listed.)`);
  }
  lines.push("Read the file again before changing it further, and do not re-apply the rejected changes unless the user asks.");
  return { note: lines.join("\n") };
}

/** `the change at line 19 (-"old" +"new")`, with the first removed and added line quoted. */
function describeHunk(hunk: ReviewHunk): string {
  const quote = (sign: string, text: string | undefined) => (text === undefined ? [] : [`${sign}${JSON.stringify(clip(text))}`]);
  const parts = [...quote("-", hunk.removed?.[0]), ...quote("+", hunk.added?.[0])];
  return `the change at line ${hunk.line}${parts.length ? ` (${parts.join(" ")})` : ""}`;
}

function clip(text: string): string {
  return text.length > MAX_QUOTE ? `${text.slice(0, MAX_QUOTE)}…` : text;
}
