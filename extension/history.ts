// The history list: `session/list` for this workspace, following `nextCursor` up to a limit,
// newest first; and its search over message content (`_hermes/sessions/search`). No vscode import.
import * as acp from "@agentclientprotocol/sdk/unstable";
import { sessionSummarySchema } from "../common/panel-state/schemas";
import type { SessionSummary } from "../common/panel-state/types";
import { FIRST_PROMPT_META, SEARCH_SESSIONS_METHOD } from "../common/hermes-methods";

const MAX_SESSIONS = 200;

export async function listSessions(agent: acp.ClientContext, cwd: string | undefined, max = MAX_SESSIONS): Promise<SessionSummary[]> {
  const sessions: SessionSummary[] = [];
  let cursor: string | undefined;
  do {
    const page = await agent.request(acp.methods.agent.session.list, { ...(cwd ? { cwd } : {}), ...(cursor ? { cursor } : {}) });
    for (const info of page.sessions) sessions.push(toSummary(info));
    cursor = page.nextCursor ?? undefined;
  } while (cursor && sessions.length < max);
  return sessions
    .slice(0, max)
    .sort((a, b) => (b.updatedAt ?? "").localeCompare(a.updatedAt ?? ""));
}

/** Sessions whose messages match `query` (the agent's `_hermes/sessions/search`), best first. */
export async function searchSessions(agent: acp.ClientContext, query: string, cwd: string | undefined): Promise<SessionSummary[]> {
  const answer = await agent.request<{ sessions?: unknown }>(SEARCH_SESSIONS_METHOD, { query, ...(cwd ? { cwd } : {}) });
  const hits = Array.isArray(answer?.sessions) ? answer.sessions : [];
  return hits.flatMap((hit: unknown) => {
    const parsed = sessionSummarySchema.safeParse(hit);
    return parsed.success ? [parsed.data] : [];
  });
}

export function toSummary(info: acp.SessionInfo): SessionSummary {
  // Hermes names each session's first prompt (`_meta["hermes/firstPrompt"]`); other agents may not.
  const raw = info._meta?.[FIRST_PROMPT_META];
  const firstPrompt = typeof raw === "string" && raw.trim() ? raw : undefined;
  return {
    sessionId: info.sessionId,
    cwd: info.cwd,
    ...(info.title ? { title: info.title } : {}),
    ...(info.updatedAt ? { updatedAt: info.updatedAt } : {}),
    ...(firstPrompt ? { firstPrompt } : {}),
  };
}
