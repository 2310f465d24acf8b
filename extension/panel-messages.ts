// What each panel message does: validated on arrival, then one handler per message type (the
// union is in webview-ui/protocol.ts). The webview views (chat-view.ts) deliver the messages
// here, so the controller does not import its own handlers.
import * as vscode from "vscode";
import { parseMessage, panelToHost, type PanelToHost } from "../common/panel-protocol";
import type { AttachedPanel, ChatController } from "./chat-controller";
import { editAndResend, restoreCheckpoint, type CheckpointActionDeps } from "./checkpoint-actions";
import { errorMessage, userMessage } from "./log";
import * as workspace from "./workspace-actions";
import { newWorktreeChat } from "./worktree-chat";

type Message<T extends PanelToHost["type"]> = Extract<PanelToHost, { type: T }>;
type Handlers = { [T in Exclude<PanelToHost["type"], "ready">]: (chat: ChatController, message: Message<T>) => unknown };

const handlers: Handlers = {
  prompt: (chat, { text }) => chat.session.prompt(text),
  cancel: (chat) => chat.session.cancel(),
  cancelQueued: (chat, { id }) => chat.session.cancelQueued(id),
  clearQueue: (chat) => chat.session.clearQueue(),
  permission: (chat, { id, optionId, reason }) => chat.permissions.answer(id, optionId, reason),
  question: (chat, { id, answer }) => chat.questions.answer(id, answer),
  steer: (chat, { text }) => chat.session.steer(text),
  reviewHunk: (chat, { id, hunk, decision }) => chat.reviews.decide(id, hunk, decision),
  reviewAll: (chat, { id, decision }) => chat.reviews.decideAll(id, decision),
  permissionHunk: (chat, { id, hunk, decision }) => chat.permissions.decideHunk(id, hunk, decision),
  openDiff: (chat, { id }) => openDiff(chat, id),
  showTerminal: (chat, { terminalId }) => showTerminal(chat, terminalId),
  openTerminalOutput: (chat, { terminalId, title }) => chat.openTerminalOutput(terminalId, title),
  openFullOutput: (chat, { toolCallId }) => chat.openFullOutput(toolCallId),
  openLocation: (_chat, { path, line }) => workspace.openLocation(path, line),
  openLink: (_chat, { href }) => workspace.openLink(href),
  copy: (_chat, { text }) => vscode.env.clipboard.writeText(text),
  insert: (_chat, { text }) => workspace.insertAtCursor(text),
  setMode: (chat, { modeId }) => chat.session.setMode(modeId),
  setConfigOption: (chat, { configId, value }) => chat.session.setConfigOption(configId, value),
  newChat: (chat, { worktree }) => (worktree ? newWorktreeChat(chat) : chat.newChat()),
  switchChat: (chat, { id }) => chat.showChat(id),
  closeChat: (chat, { id }) => chat.closeChat(id),
  worktreeApply: (chat) => chat.reviewWorktree(),
  worktreeDiscard: (chat) => chat.discardWorktree(),
  history: (chat, { open }) => chat.session.showHistory(open),
  historySearch: async (chat, { query }) => chat.store.broadcast({ type: "historyResults", query, ...(await chat.session.searchHistory(query)) }),
  openSession: (chat, { sessionId }) => {
    const title = chat.store.state.history.sessions.find((s) => s.sessionId === sessionId)?.title;
    return chat.openSession(sessionId, title);
  },
  forkSession: (chat, { turns }) => chat.session.fork(turns),
  deleteSession: (chat, { sessionId }) => chat.deleteSession(sessionId),
  restoreCheckpoint: (chat, { turn, conversation }) => restoreCheckpoint(checkpointDeps(chat), turn, conversation),
  editResend: (chat, { turn, text }) => editAndResend(checkpointDeps(chat), turn, text),
  mentionSearch: async (chat, { query }) => chat.store.broadcast({ type: "mentionResults", query, files: await workspace.searchFiles(query) }),
  mention: (chat, { uri, path }) => chat.dispatch({ type: "attachmentAdded", attachment: workspace.fileAttachment(uri, path) }),
  attach: (chat, { what }) => attachFromEditor(chat, what),
  removeAttachment: (chat, { id }) => chat.dispatch({ type: "attachmentRemoved", id }),
  pasteImage: (chat, { mimeType, data, name }) => chat.dispatch({ type: "attachmentAdded", attachment: workspace.imageAttachment(mimeType, data, name) }),
  knowledge: (chat, { open }) => chat.knowledge.show(open),
  knowledgeMemory: (chat, { type: _type, ...change }) => chat.knowledge.changeMemory(change),
  knowledgeSkill: (chat, { type: _type, ...change }) => chat.knowledge.changeSkill(change),
  restartAgent: (chat) => chat.restartAgent(),
  signIn: (chat) => chat.signIn(),
};

/** Every message from a webview: validated, then handled. Invalid ones are logged and dropped. */
export function receivePanelMessage(chat: ChatController, panel: AttachedPanel, raw: unknown): void {
  const parsed = parseMessage(panelToHost, raw);
  if (!parsed.ok) {
    chat.log.warn(`ignored an invalid panel message: ${parsed.error}`);
    return;
  }
  if (parsed.message.type === "ready") {
    chat.panelReady(panel);
    void chat.start();
    return;
  }
  handlePanelMessage(chat, parsed.message).catch((error: unknown) => {
    chat.log.error(`${parsed.message.type} failed: ${errorMessage(error)}`);
    chat.dispatch({ type: "notice", severity: "error", text: userMessage(error) });
  });
}

function handlePanelMessage(chat: ChatController, message: Exclude<PanelToHost, { type: "ready" }>): Promise<unknown> {
  const handler = handlers[message.type] as (chat: ChatController, message: PanelToHost) => unknown;
  return Promise.resolve(handler(chat, message));
}

function checkpointDeps(chat: ChatController): CheckpointActionDeps {
  return { session: chat.session, store: chat.store, restoreDraft: (text) => chat.store.broadcast({ type: "focusComposer", text }) };
}

/** Adds the selection or the active file; says so when there is no editor to take it from. */
export function attachFromEditor(chat: ChatController, what: "selection" | "activeFile"): boolean {
  const attachment = what === "selection" ? workspace.selectionAttachment() : workspace.activeFileAttachment();
  if (!attachment) {
    void vscode.window.showInformationMessage(what === "selection" ? "Select some code in an editor first." : "Open a file first.");
    return false;
  }
  chat.dispatch({ type: "attachmentAdded", attachment });
  return true;
}

/** The VS Code terminal a command ran in; it is gone once the agent released it or the user closed it. */
function showTerminal(chat: ChatController, terminalId: string): void {
  if (chat.terminals.show(terminalId)) return;
  void vscode.window.showInformationMessage("That terminal was closed; its output stays in the chat.");
}

/** The diff editor for an edit's card or held review (by its id: diff-decisions.ts) or an edit tool call's diff (by tool call id). */
async function openDiff(chat: ChatController, id: string): Promise<void> {
  if (await chat.diffDecisions.open(id)) return;
  const state = chat.store.state;
  const at = state.index[id];
  const item = at === undefined ? undefined : state.items[at];
  // A pending edit's diff may so far only be in its permission card (the tool call gets it once it runs).
  const asked = state.items.find((entry) => entry.kind === "permission" && entry.toolCallId === id && entry.content?.some((c) => c.type === "diff"));
  const content = [...(item?.kind === "tool" ? item.content : []), ...(asked?.kind === "permission" ? (asked.content ?? []) : [])];
  const diff = content.find((c) => c.type === "diff");
  if (!diff || diff.type !== "diff") {
    void vscode.window.showInformationMessage("There is no diff to show for this item.");
    return;
  }
  await chat.diffView.open(diff.path, diff.newText, { oldText: diff.oldText ?? "" });
}
