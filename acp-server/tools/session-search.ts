// session_search: the agent's memory of past conversations. One tool, three uses: search
// every other session, read one past session, or list the recent ones.
import * as z from "zod";
import type { ToolContext } from "./context";
import { defineTool, ToolError } from "./registry";

const schema = z.object({
  query: z.string().min(1).optional().describe("Words to search for."),
  session_id: z.string().min(1).optional().describe("A past session to read."),
  around: z.number().int().nonnegative().optional().describe("With session_id: a message number from a hit."),
  limit: z.number().int().positive().max(50).optional().describe("How many hits, sessions or messages (default 5, 3 summaries, 10, 20)."),
  summarize: z.boolean().optional().describe("With query: a short summary per session (helper model; slower) instead of snippets."),
});

/** Summaries at most per call (each may cost a model call). */
const MAX_SUMMARIES = 5;

export const sessionSearchTool = defineTool({
  name: "session_search",
  toolset: "memory",
  kind: "search",
  readOnly: true,
  maxResultChars: 40_000,
  description: [
    "Search and read past conversations with this user (all stored sessions, any editor), when they refer to earlier work or prior context would help.",
    "- {query}: full-text search over the other sessions; one ranked hit per session with a snippet and its message number.",
    "- {query, summarize: true}: each hit summarized for the query instead (slower; after a first look).",
    "- {session_id, around?}: that session's messages (around a hit's number, or from the start).",
    "- {}: the most recent sessions.",
  ].join("\n"),
  schema,
  title: (args) => (args.query ? `search past sessions for "${args.query}"` : args.session_id ? `read past session ${args.session_id.slice(0, 8)}` : "list recent sessions"),
  handler: async (args, ctx) => {
    const history = ctx.history;
    if (!history) throw new ToolError("Session history is not available in this context.");
    if (args.session_id) {
      const summary = await history.summary(args.session_id);
      if (!summary) throw new ToolError(`No session with id ${args.session_id}. Search with {query} or list recent sessions with {}.`);
      const messages = await history.messages(args.session_id, { aroundSeq: args.around, limit: args.limit ?? 20 });
      return { output: { session: describe(summary), messages: messages.map((m) => ({ n: m.seq, role: m.role, at: iso(m.at), text: clip(m.text, 2_000) })) } };
    }
    if (args.query) {
      const summaries = args.summarize === true;
      const hits = await history.search(args.query, { excludeSessionId: ctx.sessionId, limit: summaries ? Math.min(args.limit ?? 3, MAX_SUMMARIES) : (args.limit ?? 5) });
      if (hits.length === 0) return { output: { hits: [], note: `Nothing in past sessions matches "${args.query}". Try other words.` } };
      if (summaries) return { output: await summarizedHits(hits, args.query, ctx) };
      return {
        output: {
          hits: hits.map((hit) => ({ session_id: hit.sessionId, title: hit.title, cwd: hit.cwd, updated: iso(hit.updatedAt), message: hit.seq, role: hit.role, snippet: hit.snippet })),
          note: 'Read more of a hit with {"session_id": ..., "around": <message>}.',
        },
      };
    }
    const recent = await history.recent(args.limit ?? 10);
    return { output: { sessions: recent.filter((s) => s.id !== ctx.sessionId).map(describe) } };
  },
});

type Hit = Awaited<ReturnType<NonNullable<ToolContext["history"]>["search"]>>[number];

/** Each hit with its summary (one at a time: they share the auxiliary model); a failed one keeps its snippet. */
async function summarizedHits(hits: Hit[], query: string, ctx: ToolContext) {
  const { summarizeSession } = await import("./session-summaries");
  const rows = [];
  for (const hit of hits) {
    const base = { session_id: hit.sessionId, title: hit.title, cwd: hit.cwd, updated: iso(hit.updatedAt), message: hit.seq };
    const result = ctx.signal.aborted ? { error: "cancelled" } : await summarizeSession(hit, query, ctx);
    rows.push("summary" in result ? { ...base, summary: result.summary } : { ...base, snippet: hit.snippet, summary_unavailable: result.error });
  }
  return { hits: rows, note: 'Read a session with {"session_id": ..., "around": <message>}.' };
}

function describe(summary: { id: string; title?: string; cwd: string; updatedAt: number; messageCount: number }) {
  return { session_id: summary.id, title: summary.title ?? "(untitled)", cwd: summary.cwd, updated: iso(summary.updatedAt), messages: summary.messageCount };
}

const iso = (ms: number) => new Date(ms).toISOString();
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);
