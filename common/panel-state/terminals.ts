// Live output of the editor terminals the agent runs commands in (`terminal/create`), kept in
// ChatState so a tool card showing `{type: "terminal"}` content can render it. Pure; the host
// uses the same limits when it coalesces output (extension/terminal-feed.ts).
import type { ChatState, TerminalOutput } from "./types";

/** Characters of output kept per terminal (the newest). */
export const TERMINAL_OUTPUT_LIMIT = 64 * 1024;
/** All terminals together; past it, finished terminals are cut to OLD_TERMINAL_LIMIT, oldest first. */
export const TERMINALS_TOTAL_LIMIT = 1024 * 1024;
export const OLD_TERMINAL_LIMIT = 4 * 1024;

/** The last `limit` characters, never starting in the middle of a surrogate pair. */
export function keepTail(text: string, limit: number): { text: string; cut: boolean } {
  if (text.length <= limit) return { text, cut: false };
  let start = text.length - limit;
  const code = text.charCodeAt(start);
  if (code >= 0xdc00 && code <= 0xdfff) start++;
  return { text: text.slice(start), cut: true };
}

export function appendTerminalOutput(state: ChatState, terminalId: string, text: string, truncated?: boolean): ChatState {
  const terminals = state.terminals ?? {};
  const current = terminals[terminalId];
  if (current && text === "" && !truncated) return state;
  const kept = keepTail((current?.output ?? "") + text, TERMINAL_OUTPUT_LIMIT);
  const next: TerminalOutput = { ...current, output: kept.text };
  if (kept.cut || truncated || current?.truncated) next.truncated = true;
  return { ...state, terminals: withinBudget({ ...terminals, [terminalId]: next }, terminalId) };
}

export function markTerminalExited(state: ChatState, terminalId: string, exitCode: number | null, signal: string | null): ChatState {
  const terminals = state.terminals ?? {};
  const current = terminals[terminalId] ?? { output: "" };
  return { ...state, terminals: { ...terminals, [terminalId]: { ...current, exitCode, signal } } };
}

/** Keeps snapshots small: once the total passes the budget, finished terminals keep only a short tail. */
function withinBudget(terminals: ChatState["terminals"], growing: string): ChatState["terminals"] {
  let total = 0;
  for (const terminal of Object.values(terminals)) total += terminal.output.length;
  if (total <= TERMINALS_TOTAL_LIMIT) return terminals;
  for (const [id, terminal] of Object.entries(terminals)) {
    if (total <= TERMINALS_TOTAL_LIMIT) break;
    if (id === growing || !hasExited(terminal) || terminal.output.length <= OLD_TERMINAL_LIMIT) continue;
    const kept = keepTail(terminal.output, OLD_TERMINAL_LIMIT);
    total -= terminal.output.length - kept.text.length;
    terminals[id] = { ...terminal, output: kept.text, truncated: true };
  }
  return terminals;
}

export function hasExited(terminal: TerminalOutput): boolean {
  return terminal.exitCode !== undefined || terminal.signal !== undefined;
}
