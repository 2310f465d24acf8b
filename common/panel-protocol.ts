// The messages between the chat panel (webview) and the extension host: one zod union in each
// direction, checked on receipt on both sides. What the host sends carries ChatState and
// ChatAction, whose schemas live next to their types (./state/schemas.ts); everything the
// panel can ask for is checked strictly here.
import * as z from "zod";
import { chatActionSchema, chatStateSchema, sessionSummarySchema } from "./panel-state/schemas";

const id = z.string().min(1).max(200);

/** One open chat of the panel's tab strip (extension/chat-tabs.ts): what its tab shows. */
export const chatTabSchema = z.object({
  id,
  title: z.string().max(500).optional(),
  /** running: a turn runs; waiting: a permission or question waits for the user; failed: the last turn ended in an error. */
  status: z.enum(["running", "waiting", "idle", "failed"]),
  /** Something happened in it while it was in the background (a turn ended, it asks something). */
  unseen: z.boolean(),
  /** The chat works in its own git worktree (docs/worktrees.md): its branch and folder. */
  worktree: z.object({ branch: z.string(), path: z.string() }).optional(),
});
export type ChatTabInfo = z.infer<typeof chatTabSchema>;

export const hostToPanel = z.discriminatedUnion("type", [
  z.object({ type: z.literal("snapshot"), state: chatStateSchema }),
  z.object({ type: z.literal("actions"), actions: z.array(chatActionSchema) }),
  z.object({ type: z.literal("mentionResults"), query: z.string(), files: z.array(z.object({ uri: z.string(), path: z.string() })) }),
  /** A history search's hits over message content (`ok: false`: the agent cannot search; filter by title). */
  z.object({ type: z.literal("historyResults"), query: z.string(), ok: z.boolean(), sessions: z.array(sessionSummarySchema) }),
  /** The open chats and which one the panel shows (the tab strip). */
  z.object({ type: z.literal("chats"), chats: z.array(chatTabSchema), active: id }),
  /** Focus the composer, optionally replacing its text (explain / fix selection). */
  z.object({ type: z.literal("focusComposer"), text: z.string().optional() }),
]);
export type HostToPanel = z.infer<typeof hostToPanel>;

export const panelToHost = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ready") }),
  z.object({ type: z.literal("prompt"), text: z.string().max(1_000_000) }),
  z.object({ type: z.literal("cancel") }),
  z.object({ type: z.literal("cancelQueued"), id }),
  /** Drops every queued prompt (the agent's queue: `/queue clear`). */
  z.object({ type: z.literal("clearQueue") }),
  /** `reason`: the user's words with a rejection ("No, do this instead…"), passed on to the model. */
  z.object({ type: z.literal("permission"), id, optionId: id, reason: z.string().max(4000).optional() }),
  /** The answer to the agent's question (`answer` absent: declined). */
  z.object({ type: z.literal("question"), id, answer: z.string().max(4000).optional() }),
  /** Guidance for the running turn (/steer), sent at once instead of queued. */
  z.object({ type: z.literal("steer"), text: z.string().min(1).max(100_000) }),
  z.object({ type: z.literal("reviewHunk"), id, hunk: z.number().int().min(0), decision: z.enum(["accepted", "rejected", "pending"]) }),
  z.object({ type: z.literal("reviewAll"), id, decision: z.enum(["accepted", "rejected"]) }),
  /** One hunk of an edit decided in its permission card (by the card's id). */
  z.object({ type: z.literal("permissionHunk"), id, hunk: z.number().int().min(0), decision: z.enum(["accepted", "rejected", "pending"]) }),
  /** Opens VS Code's diff editor for a review (by review id), an edit's permission card (by its id) or an edit tool call (by tool call id). */
  z.object({ type: z.literal("openDiff"), id }),
  /** Opens an editor-run command's whole output (the card keeps only its tail) read-only in an editor. */
  z.object({ type: z.literal("openTerminalOutput"), terminalId: id, title: z.string().max(500) }),
  /** Opens the agent's spill file of a tool call's whole output (`_meta["hermes/fullOutput"]`), read-only. */
  z.object({ type: z.literal("openFullOutput"), toolCallId: id }),
  /** Reveals the VS Code terminal an editor-run command shows in. */
  z.object({ type: z.literal("showTerminal"), terminalId: id }),
  z.object({ type: z.literal("openLocation"), path: z.string().min(1), line: z.number().int().min(0).optional() }),
  z.object({ type: z.literal("openLink"), href: z.string().min(1).max(10_000) }),
  z.object({ type: z.literal("copy"), text: z.string() }),
  z.object({ type: z.literal("insert"), text: z.string() }),
  z.object({ type: z.literal("setMode"), modeId: id }),
  z.object({ type: z.literal("setConfigOption"), configId: id, value: z.union([z.string(), z.boolean()]) }),
  /** A new chat in a tab of its own; `worktree`: in its own git worktree (the host asks for a branch name). */
  z.object({ type: z.literal("newChat"), worktree: z.boolean().optional() }),
  /** Shows another open chat (the others keep running). */
  z.object({ type: z.literal("switchChat"), id }),
  /** Closes a chat's tab (its turn is stopped; the session stays in History). */
  z.object({ type: z.literal("closeChat"), id }),
  /** A worktree chat's "Review & apply": its changes reviewed hunk by hunk, the accepted part applied to the main checkout. */
  z.object({ type: z.literal("worktreeApply") }),
  /** A worktree chat's "Discard": Hermes asks, then removes its worktree and branch. */
  z.object({ type: z.literal("worktreeDiscard") }),
  z.object({ type: z.literal("history"), open: z.boolean() }),
  /** Searches the history by content (the agent's `_hermes/sessions/search`). */
  z.object({ type: z.literal("historySearch"), query: z.string().max(500) }),
  z.object({ type: z.literal("openSession"), sessionId: id }),
  /** Forks the current session keeping its first `turns` prompts and their answers. */
  z.object({ type: z.literal("forkSession"), turns: z.number().int().min(0) }),
  z.object({ type: z.literal("deleteSession"), sessionId: id }),
  /** Restores the files to before prompt `turn` (the agent shows the diff and asks first); `conversation`: also rewinds the chat into a new branch. */
  z.object({ type: z.literal("restoreCheckpoint"), turn: z.number().int().min(1), conversation: z.boolean() }),
  /** Rewinds to before prompt `turn` (files restored after a yes, chat forked) and sends `text` there. */
  z.object({ type: z.literal("editResend"), turn: z.number().int().min(1), text: z.string().min(1).max(1_000_000) }),
  z.object({ type: z.literal("mentionSearch"), query: z.string().max(500) }),
  z.object({ type: z.literal("mention"), uri: z.string().min(1), path: z.string().min(1) }),
  z.object({ type: z.literal("attach"), what: z.enum(["selection", "activeFile"]) }),
  z.object({ type: z.literal("removeAttachment"), id }),
  z.object({ type: z.literal("pasteImage"), mimeType: z.string().regex(/^image\/[\w.+-]+$/), data: z.string().max(20_000_000), name: z.string().max(200) }),
  /** Opens (or refreshes) and closes "What Hermes knows". */
  z.object({ type: z.literal("knowledge"), open: z.boolean() }),
  /** A memory entry added, edited or deleted (by its 0-based index; `expected`: its text as shown), or a file reverted. */
  z.object({
    type: z.literal("knowledgeMemory"),
    action: z.enum(["add", "edit", "delete", "revert"]),
    target: z.enum(["memory", "user"]),
    index: z.number().int().min(0).max(10_000).optional(),
    text: z.string().min(1).max(20_000).optional(),
    expected: z.string().max(20_000).optional(),
  }),
  /** A skill archived (delete), reverted to its previous version, restored from the archive, or its whole SKILL.md saved (edit, with `text`; Hermes checks it like skill_manage's edit). */
  z.object({ type: z.literal("knowledgeSkill"), action: z.enum(["delete", "revert", "restore", "edit"]), name: z.string().min(1).max(64), text: z.string().min(1).max(100_000).optional() })
    .refine((message) => (message.action === "edit") === (message.text !== undefined), "text goes with edit, and only with edit"),
  z.object({ type: z.literal("restartAgent") }),
  /** The notice's "Sign in" button: the host asks for a provider and key (or runs setup in a terminal). */
  z.object({ type: z.literal("signIn") }),
]);
export type PanelToHost = z.infer<typeof panelToHost>;

/** Parses a message from the other side; invalid messages come back as an error string. */
export function parseMessage<T>(schema: z.ZodType<T>, raw: unknown): { ok: true; message: T } | { ok: false; error: string } {
  const result = schema.safeParse(raw);
  return result.success ? { ok: true, message: result.data } : { ok: false, error: z.prettifyError(result.error) };
}
