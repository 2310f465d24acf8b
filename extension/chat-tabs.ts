// The panel's open chats: each a ChatTab with its own session, state and cards, all on the one
// agent process. One is shown; the others keep running in the background, and what happens there
// (a turn ends, a permission or a question waits) marks their tab and is reported through
// `background` so the host can notify. The open chats' sessions are what a window reload reopens
// (`saved()` / the controller's memento). No vscode import: tested against the real agent.
import * as z from "zod";
import type { ChatTabInfo } from "../common/panel-protocol";
import type { ChatAction } from "../common/panel-state/actions";
import type { ChatState } from "../common/panel-state/types";
import { affectsTab, backgroundEvent, chatStatus, tabTitle, type BackgroundEvent } from "./chat-status";
import { ChatTab, type ChatTabDeps } from "./chat-tab";
import type { Logger } from "./log";

export interface ChatTabsEvents {
  /** A chat was made (it learns what every chat shares, e.g. the agent's connection state). */
  opened?(tab: ChatTab): void;
  /** A chat that is not shown finished its turn or asks the user something. */
  background?(tab: ChatTab, event: BackgroundEvent): void;
  /** Another chat is shown (the panels move to its state). */
  switched?(from: ChatTab | undefined, to: ChatTab): void;
  /** The tab strip changed (a chat's title, status or worktree, a chat opened, closed or shown). */
  listChanged?(): void;
}

/** What a reload reopens: the open chats' sessions, in tab order, and the one shown (kept in workspaceState). */
const savedChatsSchema = z.object({ sessions: z.array(z.string().min(1).max(200)).max(50), active: z.string().min(1).max(200).optional() });
export type SavedChats = z.infer<typeof savedChatsSchema>;

/** The saved chats as read back from storage; undefined when absent or not in this shape. */
export function savedChatsOf(raw: unknown): SavedChats | undefined {
  const parsed = savedChatsSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

export class ChatTabs {
  private readonly tabs: ChatTab[] = [];
  private current: ChatTab | undefined;
  private next = 1;
  private readonly stops = new Map<ChatTab, () => void>();
  private readonly listeners = new Set<(state: ChatState, action: ChatAction, tab: ChatTab) => void>();
  private lastList = "";

  constructor(
    private readonly deps: ChatTabDeps,
    private readonly events: ChatTabsEvents = {},
  ) {}

  /** The chat the panel shows (one is made on first use: the panel always shows a chat). */
  get active(): ChatTab {
    return this.current ?? this.open();
  }

  get all(): readonly ChatTab[] {
    return this.tabs;
  }

  get(id: string): ChatTab | undefined {
    return this.tabs.find((tab) => tab.id === id);
  }

  /** The chat whose session this is (agent requests name their session). */
  bySession(sessionId: string | undefined): ChatTab | undefined {
    return sessionId ? this.tabs.find((tab) => tab.sessionId === sessionId) : undefined;
  }

  /** A new, empty chat after the others (not shown until `show`). */
  open(): ChatTab {
    const tab = new ChatTab(`chat-${this.next++}`, this.deps);
    this.tabs.push(tab);
    // The first chat is the one shown, before anyone hears of it (a listener may ask for `active`).
    this.current ??= tab;
    this.stops.set(
      tab,
      tab.store.onChange((state, action) => {
        if (tab !== this.current) {
          const event = backgroundEvent(action);
          if (event) {
            tab.unseen = true;
            this.events.background?.(tab, event);
          }
        }
        for (const listener of this.listeners) listener(state, action, tab);
        if (affectsTab(action)) this.announce();
      }),
    );
    this.events.opened?.(tab);
    this.announce();
    return tab;
  }

  show(id: string): ChatTab | undefined {
    const tab = this.get(id);
    if (!tab) return undefined;
    const from = this.current;
    tab.unseen = false;
    if (from !== tab) {
      this.current = tab;
      this.events.switched?.(from, tab);
    }
    this.announce();
    return tab;
  }

  /**
   * Closes a chat: its waiting cards are answered "cancelled" and its turn stopped (the session
   * stays in History). The one shown next is its neighbour; closing the last leaves a new, empty one.
   */
  async close(id: string): Promise<void> {
    const tab = this.get(id);
    if (!tab) return;
    const at = this.tabs.indexOf(tab);
    if (tab === this.current) {
      const neighbour = this.tabs[at + 1] ?? this.tabs[at - 1] ?? this.open();
      this.show(neighbour.id);
    }
    this.tabs.splice(this.tabs.indexOf(tab), 1);
    this.stops.get(tab)?.();
    this.stops.delete(tab);
    this.announce();
    try {
      await tab.close();
    } finally {
      tab.dispose(false);
    }
  }

  /**
   * Deletes a session from History. Open in a chat other than the shown one: that chat is closed
   * first (its turn stopped), so no tab is left on a session that is gone.
   */
  async deleteSession(sessionId: string): Promise<void> {
    const open = this.bySession(sessionId);
    if (open && open !== this.current) await this.close(open.id);
    await this.active.session.delete(sessionId);
  }

  /** Called after every action of any chat (context keys, the diff editor's decisions). */
  onChange(listener: (state: ChatState, action: ChatAction, tab: ChatTab) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The tab strip: every chat with its status, the shown one's `unseen` always false. */
  list(): ChatTabInfo[] {
    return this.tabs.map((tab) => ({
      id: tab.id,
      ...tabTitle(tab.store.state),
      status: chatStatus(tab.store.state),
      unseen: tab !== this.current && tab.unseen,
      ...(tab.worktree ? { worktree: { branch: tab.worktree.branch, path: tab.worktree.path } } : {}),
    }));
  }

  saved(): SavedChats {
    const sessions = this.tabs.flatMap((tab) => (tab.sessionId ? [tab.sessionId] : []));
    const active = this.current?.sessionId ?? undefined;
    return { sessions, ...(active ? { active } : {}) };
  }

  /** Tells `listChanged` only when the strip would look different (not on every streamed chunk). */
  announce(): void {
    const list = JSON.stringify([this.current?.id, this.list()]);
    if (list === this.lastList) return;
    this.lastList = list;
    this.events.listChanged?.();
  }

  dispose(): void {
    for (const stop of this.stops.values()) stop();
    this.stops.clear();
    // The open chats' spilled output stays for a window reload, which reopens them.
    for (const tab of this.tabs) tab.dispose(true);
    this.tabs.length = 0;
    this.listeners.clear();
  }
}

/**
 * Reopens the chats open before a window reload, in their order, and shows the one that was
 * shown (reopened first, so the panel has it soonest). The shown one falls back to a new chat
 * when it cannot be reopened; another that cannot (deleted meanwhile) is left closed.
 */
export async function reopenChats(tabs: ChatTabs, saved: SavedChats | undefined, log: Logger): Promise<void> {
  const sessions = [...new Set(saved?.sessions ?? [])];
  if (sessions.length === 0) {
    await tabs.active.session.ensureSession();
    return;
  }
  const shownId = saved?.active && sessions.includes(saved.active) ? saved.active : sessions[sessions.length - 1];
  const first = tabs.active;
  const placed = sessions.map((sessionId, i) => ({ sessionId, tab: i === 0 ? first : tabs.open() }));
  const shown = placed.find((p) => p.sessionId === shownId)!;
  tabs.show(shown.tab.id);
  try {
    await shown.tab.session.restore(shownId);
  } catch (error) {
    // No agent or no model yet (the caller offers the sign-in, then tries again): no empty tabs stay behind.
    for (const { tab } of placed) if (tab !== first) await tabs.close(tab.id);
    tabs.show(first.id);
    throw error;
  }
  for (const { sessionId, tab } of placed) {
    if (tab === shown.tab) continue;
    await tab.session.load(sessionId, undefined, { quiet: true });
    if (tab.sessionId === sessionId && tab.store.state.items.length > 0) continue;
    log.warn(`could not reopen chat ${sessionId}; its tab is closed`);
    await tabs.close(tab.id);
  }
}
