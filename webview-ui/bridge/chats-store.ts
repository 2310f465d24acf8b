// The panel's open chats (the host's tab strip, extension/chat-tabs.ts): replaced whole by each
// `chats` message. Kept apart from the chat mirror: switching chats replaces that one with the
// other chat's snapshot, while the strip stays.
import type { ChatTabInfo } from "../../common/panel-protocol";
import { createStore } from "./external-store";

export interface ChatsState {
  chats: ChatTabInfo[];
  active: string | undefined;
}

export const chatsStore = createStore<ChatsState>({ chats: [], active: undefined });

export function replaceChats(chats: ChatTabInfo[], active: string): void {
  chatsStore.set({ chats, active });
}

/** The shown chat's tab (its worktree for the header). */
export function activeChat(state: ChatsState): ChatTabInfo | undefined {
  return state.chats.find((chat) => chat.id === state.active);
}
