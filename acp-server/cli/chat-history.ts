// What was typed at the chat prompt, kept in $HERMES_HOME/chat_history (mode 600) across chats:
// up/down and Ctrl-R walk it, /history searches it.
import { appendFileSync, readFileSync } from "node:fs";
import path from "node:path";

/** How many past lines the prompt offers (the file itself keeps everything). */
export const HISTORY_LIMIT = 1000;

export function chatHistoryFile(home: string): string {
  return path.join(home, "chat_history");
}

/** Oldest first. */
export function readChatHistory(file: string): string[] {
  try {
    return readFileSync(file, "utf8").split("\n").filter(Boolean);
  } catch {
    // expected: no history file yet (or an unreadable one) starts the chat with an empty history
    return [];
  }
}

export function rememberChatLine(file: string, line: string): void {
  try {
    appendFileSync(file, `${line.replace(/\n/g, " ")}\n`, { mode: 0o600 });
  } catch {
    // expected: history is a convenience: a read-only HERMES_HOME must not stop the chat
  }
}
