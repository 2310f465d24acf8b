// The chat's own keys, on top of readline's: Ctrl-O shows the last tool step in full (as /expand
// does for the whole turn), Ctrl-S sends what is queued during a turn as /steer instead of
// waiting for the turn to end. Both are plain control bytes (0x0f, 0x13), so they reach the chat
// the same way in tmux, VS Code's terminal and xterm: a terminal in raw mode (readline's) has
// flow control off, so Ctrl-S is not XOFF there.
import type { Interface } from "node:readline";

export type ChatKey = "expand" | "steer";

const BINDINGS: Record<string, ChatKey> = { o: "expand", s: "steer" };

interface Key {
  name?: string;
  ctrl?: boolean;
  meta?: boolean;
}
type KeyHandler = (text: string | undefined, key: Key | undefined) => void;

/** The chat key a keypress is, if any. */
export function chatKeyOf(key: Key | undefined): ChatKey | undefined {
  if (!key?.ctrl || key.meta || !key.name) return undefined;
  return BINDINGS[key.name];
}

/**
 * Wraps readline's key handler (the same hook reverse-search.ts uses). `onKey` returns true when it
 * used the key; otherwise the key does what readline does with it (Ctrl-S, Ctrl-O: nothing much).
 * Returns false when this readline has no key handler (not a terminal): then there are no keys.
 */
export function addChatKeys(rl: Interface, onKey: (key: ChatKey) => boolean): boolean {
  const target = rl as unknown as { _ttyWrite?: KeyHandler };
  const original = target._ttyWrite;
  if (typeof original !== "function") return false;
  target._ttyWrite = (text, key) => {
    const chatKey = chatKeyOf(key);
    if (chatKey && onKey(chatKey)) return;
    original.call(rl, text, key);
  };
  return true;
}
