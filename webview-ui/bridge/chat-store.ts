// The panel's mirror of the host's ChatState. A snapshot replaces it; actions are queued and
// applied with the shared reducer once per animation frame, so a burst of streamed chunks
// costs one render instead of one per chunk.
import { reduce, initialState } from "../../common/panel-state/reducer";
import type { ChatAction } from "../../common/panel-state/actions";
import type { ChatState } from "../../common/panel-state/types";
import { createStore } from "./external-store";

export const chatStore = createStore<ChatState>(initialState());

let pending: ChatAction[] = [];
let scheduled: { cancel(): void } | undefined;

export function replaceChatState(state: ChatState): void {
  pending = [];
  scheduled?.cancel();
  scheduled = undefined;
  chatStore.set(state);
}

export function enqueueActions(actions: ChatAction[]): void {
  for (const action of actions) pending.push(action);
  scheduled ??= schedule(flush);
}

/** Applies every queued action now (tests and the bench can call this too). */
export function flush(): void {
  scheduled = undefined;
  const batch = pending;
  pending = [];
  let state = chatStore.get();
  for (const action of batch) state = reduce(state, action);
  chatStore.set(state);
}

/** Next frame while visible; a hidden webview gets no frames, so fall back to a slow timer. */
function schedule(run: () => void): { cancel(): void } {
  if (document.visibilityState === "hidden") {
    const timer = setTimeout(run, 250);
    return { cancel: () => clearTimeout(timer) };
  }
  const frame = requestAnimationFrame(run);
  return { cancel: () => cancelAnimationFrame(frame) };
}
