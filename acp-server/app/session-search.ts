// `_hermes/sessions/search`: the history searched by content, not only by title. The session
// index's full-text search (sessions/index-search.ts) finds the best message of each session;
// each hit comes with the session's first prompt (what a user remembers a chat by), its
// workspace, title and time, and a snippet. Loaded on first use (zod and the index are heavy).
import * as z from "zod";
import type { SessionStore } from "../sessions/session-store";
import { invalidParams } from "../util/agent-error";
import { redactSecrets } from "../util/redact";
import { firstPromptOf } from "../sessions/first-prompt";

import { SEARCH_SESSIONS_METHOD } from "../../common/hermes-methods";

const paramsSchema = z.object({
  query: z.string().trim().min(1).max(500),
  /** Only sessions of this workspace (absolute path); all of them when absent. */
  cwd: z.string().min(1).optional(),
  limit: z.number().int().min(1).max(100).optional(),
});

export interface SessionSearchHit {
  sessionId: string;
  cwd: string;
  title?: string;
  /** ISO 8601, as session/list has it. */
  updatedAt: string;
  /** The session's first prompt, on one line and at most FIRST_PROMPT_CHARS long (first-prompt.ts). */
  firstPrompt?: string;
  /** Text around the best match, the matched words in [brackets]. */
  snippet: string;
}

export async function searchSessions(store: SessionStore, raw: unknown): Promise<{ sessions: SessionSearchHit[] }> {
  const parsed = paramsSchema.safeParse(raw ?? {});
  if (!parsed.success) throw invalidParams(`invalid ${SEARCH_SESSIONS_METHOD} params: ${z.prettifyError(parsed.error)}`);
  const { query, cwd, limit } = parsed.data;
  const hits = await store.search(query, { limit: limit ?? 30, ...(cwd ? { cwd } : {}) });
  const sessions = await Promise.all(
    hits.map(async (hit): Promise<SessionSearchHit> => {
      const firstPrompt = await firstPromptOf(store, hit.sessionId);
      // Journals written before a redaction rule existed are indexed as they were: mask on the way out.
      return {
        sessionId: hit.sessionId,
        cwd: hit.cwd,
        ...(hit.title ? { title: redactSecrets(hit.title) } : {}),
        updatedAt: new Date(hit.updatedAt).toISOString(),
        ...(firstPrompt ? { firstPrompt } : {}),
        snippet: redactSecrets(hit.snippet),
      };
    }),
  );
  return { sessions };
}
