// Where a resumed chat was: the last few exchanges of the session, compactly (a line or two each),
// printed by --continue, --resume and /resume; /history asks for more. Read from the session index
// the editors and `hermes sessions show` use, so it is what the agent will carry on from.
import type { MessageText } from "../sessions/types";
import { terminalSafe } from "./terminal-safe";

const MAX_REPLY_LINES = 3;

/** The last `exchanges` user turns and what followed each, cut to `width` columns. */
export function recapText(messages: readonly MessageText[], exchanges: number, width: number, earlier = 0): string {
  const spoken = messages.filter((m) => (m.role === "user" || m.role === "assistant") && m.text.trim());
  let start = spoken.length;
  for (let seen = 0; start > 0 && seen < exchanges; ) if (spoken[--start]!.role === "user") seen++;
  const shown = spoken.slice(start);
  if (shown.length === 0) return "";
  const cut = (line: string, room: number) => (line.length > room ? `${line.slice(0, Math.max(1, room - 1))}…` : line);
  const out: string[] = [];
  const hidden = earlier + start;
  if (hidden > 0) out.push(`  … ${hidden} earlier message${hidden === 1 ? "" : "s"} (/history shows more)`);
  for (const message of shown) {
    // Shown on the chat's screen: the session's words without control codes (terminal-safe.ts).
    const lines = terminalSafe(message.text).trim().split("\n").filter((line) => line.trim());
    if (message.role === "user") out.push(cut(`› ${lines.join(" ").replace(/\s+/g, " ")}`, width));
    else {
      for (const line of lines.slice(0, MAX_REPLY_LINES)) out.push(cut(`  ${line}`, width));
      if (lines.length > MAX_REPLY_LINES) out.push(`  … (${lines.length - MAX_REPLY_LINES} more lines)`);
    }
  }
  return `${out.join("\n")}\n`;
}

export async function sessionRecap(home: string, sessionId: string, exchanges: number, width: number): Promise<string> {
  // Loaded only on a resume: the index is a large module.
  const [{ SessionStore }, { createLogger }] = await Promise.all([import("../sessions/session-store"), import("../util/log")]);
  const store = new SessionStore({ home, log: createLogger("chat-recap") });
  const summary = await store.summary(sessionId);
  const total = summary?.messageCount ?? 0;
  // The tail of the session: enough messages for the exchanges asked, tool results included.
  const offset = Math.max(0, total - exchanges * 12);
  const messages = await store.messages(sessionId, { offset, limit: exchanges * 12 });
  return recapText(messages, exchanges, width, offset);
}
