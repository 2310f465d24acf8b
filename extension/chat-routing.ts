// The agent's requests and notifications, each to the chat of the session it names: a
// background chat's updates, permission cards, questions and file writes (held for review) are
// its own, never the shown chat's. A request naming no open chat's session (one being opened)
// goes to the chat shown. No vscode import: the editor's file access is passed in.
import type { ClientHandlers } from "./acp-connection";
import type { ChatTab } from "./chat-tab";
import type { ChatTabs } from "./chat-tabs";

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
