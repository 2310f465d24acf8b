// Receives the host's messages: validates each with the shared zod union, then dispatches by
// type through a handler table. Invalid messages are reported and dropped, never half-applied.
import { hostToPanel, parseMessage, type HostToPanel } from "../../common/panel-protocol";
import { enqueueActions, replaceChatState } from "./chat-store";
import { replaceChats } from "./chats-store";
import { emitHostEvent } from "./host-events";
import { post } from "./vscode-api";

type Handlers = { [K in HostToPanel["type"]]: (message: Extract<HostToPanel, { type: K }>) => void };

const handlers: Handlers = {
  snapshot: (m) => replaceChatState(m.state),
  actions: (m) => enqueueActions(m.actions),
  mentionResults: (m) => emitHostEvent(m),
  historyResults: (m) => emitHostEvent(m),
  focusComposer: (m) => emitHostEvent(m),
  chats: (m) => replaceChats(m.chats, m.active),
};

function dispatch(message: HostToPanel): void {
  (handlers[message.type] as (m: HostToPanel) => void)(message);
}

/** Starts listening, then tells the host the panel is ready for its snapshot. */
export function connectToHost(): void {
  window.addEventListener("message", (event: MessageEvent) => {
    const parsed = parseMessage(hostToPanel, event.data);
    if (!parsed.ok) {
      console.warn(`[hermes panel] ignored an invalid host message: ${parsed.error}`);
      return;
    }
    dispatch(parsed.message);
  });
  post({ type: "ready" });
}
