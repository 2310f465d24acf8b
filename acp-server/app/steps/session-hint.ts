// The first prompt of a new session gets a hint naming the most recent earlier sessions of the
// same workspace that look related to it (the index's full-text search over the prompt), so the
// model knows there is past work to read with session_search. It goes in the ephemeral layer of
// the turn's first model call (agent/ephemeral.ts): never in the frozen system prompt or the
// journal, so the prompt cache and the replayed conversation stay as they are.
import type { SessionStore } from "../../sessions/session-store";
import { scanForThreats } from "../../security/threat-scan";
import type { Logger } from "../../util/log";
import { redactSecrets } from "../../util/redact";
import { firstPromptOf } from "../../sessions/first-prompt";

/** Longest the first prompt waits for the search (the index loads 2 s after a new session is answered; a prompt sooner loads it itself). */
export const HINT_BUDGET_MS = 1_500;
const QUERY_CHARS = 400;
/** Hits the search ranks; the most recent of them are named. */
const RANKED = 6;
const NAMED = 3;
const LINE_CHARS = 160;

export async function relatedSessionsHint(store: SessionStore, session: { id: string; cwd: string }, prompt: string, log: Logger, budgetMs = HINT_BUDGET_MS): Promise<string | undefined> {
  const words = distinctiveWords(prompt.slice(0, QUERY_CHARS));
  if (words.length === 0) return undefined;
  // A hit must share this many of the prompt's distinctive words (the search falls back to any word).
  const needed = Math.min(2, words.length);
  const work = (async () => {
    const hits = await store.search(words.join(" "), { cwd: session.cwd, excludeSessionId: session.id, limit: RANKED });
    const related = hits.filter((hit) => matchedWords(hit.snippet) >= needed);
    const recent = related.sort((a, b) => b.updatedAt - a.updatedAt).slice(0, NAMED);
    const lines: string[] = [];
    for (const hit of recent) {
      const first = await firstPromptOf(store, hit.sessionId);
      const title = hit.title ? redactSecrets(hit.title) : undefined;
      const about = [title ? `"${clip(title)}"` : undefined, first && first !== title ? `first asked: "${clip(first)}"` : undefined].filter(Boolean).join(", ");
      // Past text becomes part of this call: what the scan flags is not passed on.
      if (!about || scanForThreats(about, "context")) continue;
      lines.push(`- session_id ${hit.sessionId} (${new Date(hit.updatedAt).toISOString().slice(0, 10)}): ${about}`);
    }
    return lines;
  })();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), budgetMs)));
  try {
    const lines = await Promise.race([work, late]);
    if (lines === "late") {
      log.debug("related sessions hint skipped: the search took too long", { sessionId: session.id, budgetMs });
      work.catch(() => undefined); // expected: the abandoned search may still fail; nobody waits for it, so it must not reject unhandled
      return undefined;
    }
    if (lines.length === 0) return undefined;
    return [
      "[Hermes note: earlier sessions in this workspace look related to this request (most recent first):",
      ...lines,
      'If their context would help, read one with session_search {"session_id": ...}, or search them with {"query": ..., "summarize": true}; otherwise ignore this note.]',
    ].join("\n");
  } catch (error) {
    log.warn("related sessions hint failed", { sessionId: session.id, error });
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

const STOP_WORDS = new Set(
  "the and for with this that these those from into onto about again also just then than there their they them what when where which while who why how can could would should will shall may might must have has had does did done doing not but all any some our out your you are was were been being its it's let make please here more most very".split(" "),
);
const MAX_WORDS = 12;

/** The prompt's words worth searching for: no short or common ones, each once. */
function distinctiveWords(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
  return [...new Set(words.filter((word) => word.length >= 3 && !STOP_WORDS.has(word)))].slice(0, MAX_WORDS);
}

/** How many different words the search marked [like this] in a hit's snippet. */
function matchedWords(snippet: string): number {
  return new Set([...snippet.matchAll(/\[([^\]]+)\]/g)].map((match) => (match[1] ?? "").toLowerCase())).size;
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > LINE_CHARS ? `${flat.slice(0, LINE_CHARS - 1)}…` : flat;
}
