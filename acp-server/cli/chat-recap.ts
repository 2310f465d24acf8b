// Where a resumed chat left off, for the terminal: the last few exchanges, one line for what you
// asked and one for what Hermes answered (with how many tool calls it made), read from the
// session's journal. Shown when `hermes chat --continue` / `--resume` / `/resume` opens a
// session, and by `/history` (more of them).
import { isUserPrompt, type ChatMessage } from "../providers/types";
import { SessionStore } from "../sessions/session-store";
import { createLogger } from "../util/log";

export interface Exchange {
  prompt: string;
  answer: string;
  toolCalls: number;
}

/** The session's exchanges, oldest first (a prompt, then the last text the agent wrote before the next prompt). */
export function exchangesOf(messages: readonly ChatMessage[]): Exchange[] {
  const exchanges: Exchange[] = [];
  for (const message of messages) {
    if (isUserPrompt(message) && message.role === "user") {
      exchanges.push({ prompt: message.content.map((part) => (part.type === "text" ? part.text : "[image]")).join(" "), answer: "", toolCalls: 0 });
      continue;
    }
    const current = exchanges.at(-1);
    if (!current || message.role !== "assistant") continue;
    if (message.content.trim()) current.answer = message.content;
    current.toolCalls += message.toolCalls?.length ?? 0;
  }
  return exchanges;
}

/** The last `count` exchanges as terminal lines (each cut to the width given). */
export function recapLines(exchanges: readonly Exchange[], count: number, width = 100): string[] {
  const oneLine = (text: string, max: number) => {
    const flat = text.replace(/\s+/g, " ").trim();
    return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
  };
  const shown = exchanges.slice(-count);
  const lines: string[] = [];
  if (exchanges.length > shown.length) lines.push(`  (${exchanges.length - shown.length} earlier exchange${exchanges.length - shown.length === 1 ? "" : "s"}; /history shows more)`);
  for (const exchange of shown) {
    lines.push(`  › ${oneLine(exchange.prompt, width - 4)}`);
    const tools = exchange.toolCalls ? ` (${exchange.toolCalls} tool call${exchange.toolCalls === 1 ? "" : "s"})` : "";
    lines.push(`    ${exchange.answer ? oneLine(exchange.answer, width - 6 - tools.length) : "(no answer)"}${tools}`);
  }
  return lines;
}

/** The session's exchanges from its journal (none when it cannot be read: the recap is a convenience). */
export async function readExchanges(home: string, sessionId: string): Promise<Exchange[]> {
  const store = new SessionStore({ home, log: createLogger("chat") });
  try {
    const stored = await store.read(sessionId);
    if (!stored) return [];
    return exchangesOf(stored.records.flatMap((record) => (record.t === "message" ? [record.message] : [])));
  } catch {
    // expected: an unreadable journal just shows no recap; the resume itself reports real problems
    return [];
  } finally {
    await store.close();
  }
}
