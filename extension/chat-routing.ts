// The agent's requests and notifications, each to the chat of the session it names: a
// background chat's updates, permission cards, questions and file writes (held for review) are
// its own, never the shown chat's. A request naming no open chat's session (one being opened)
// goes to the chat shown. No vscode import: the editor's file access is passed in.
import type { ClientHandlers } from "./acp-connection";
import type { ChatTab } from "./chat-tab";
import type { ChatTabs } from "./chat-tabs";
import type { PermissionBroker } from "./permissions";

type Routed = Pick<ClientHandlers, "update" | "queueChanged" | "requestPermission" | "elicitation" | "fs">;
type FileHandlers = NonNullable<ClientHandlers["fs"]>;

export function tabOf(tabs: ChatTabs, sessionId: string | undefined): ChatTab {
  return tabs.bySession(sessionId) ?? tabs.active;
}

/** `files(tab)`: reads and writes for that chat (a write may be held in its review). */
export function routeToChats(tabs: ChatTabs, files: (tab: ChatTab) => FileHandlers): Routed {
  return {
    // Every chat looks: it takes its own session's updates, and buffers those of a session it is opening.
    update: (notification) => tabs.all.forEach((tab) => tab.session.onUpdate(notification)),
    queueChanged: (params) => tabs.all.forEach((tab) => tab.session.onQueueChanged(params)),
    requestPermission: (params, signal) => tabOf(tabs, params.sessionId).permissions.request(params, signal),
    // An elicitation may come from outside a session (ACP makes sessionId optional there).
    elicitation: (params, signal) => tabOf(tabs, (params as { sessionId?: string }).sessionId).questions.request(params, signal),
    fs: {
      read: (params) => files(tabOf(tabs, params.sessionId)).read(params),
      write: (params, signal) => files(tabOf(tabs, params.sessionId)).write(params, signal),
    },
  };
}

/** The chat whose transcript holds the card of this id (ids are unique across chats), else the shown one. */
export function tabOfCard(tabs: ChatTabs, id: string): ChatTab {
  return tabs.all.find((tab) => tab.store.state.index[id] !== undefined) ?? tabs.active;
}

/**
 * The permission cards and held edits of every chat, by card id: the diff editor opened on one
 * chat's edit still decides that chat's card after another chat is shown.
 */
export function cardsById(tabs: ChatTabs): { permissions: Pick<PermissionBroker, "edit" | "answerKind" | "decideHunk">; reviews: ChatTab["reviewsById"] } {
  return {
    permissions: {
      edit: (id) => tabOfCard(tabs, id).permissions.edit(id),
      answerKind: (id, kind) => tabOfCard(tabs, id).permissions.answerKind(id, kind),
      decideHunk: (id, hunk, decision) => tabOfCard(tabs, id).permissions.decideHunk(id, hunk, decision),
    },
    reviews: {
      get: (id) => tabOfCard(tabs, id).reviewsById.get(id),
      pendingHunks: (id) => tabOfCard(tabs, id).reviewsById.pendingHunks(id),
      decide: (id, hunk, decision) => tabOfCard(tabs, id).reviewsById.decide(id, hunk, decision),
      decideAll: (id, decision) => tabOfCard(tabs, id).reviewsById.decideAll(id, decision),
    },
  };
}
