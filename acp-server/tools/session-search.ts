// session_search: the agent's memory of past conversations. One tool, three uses: search
// every other session, read one past session, or list the recent ones.
import { z } from "zod";
import { defineTool, ToolError } from "./registry";

const schema = z.object({
  query: z.string().min(1).optional().describe("Words to search for across all other sessions (full text, ranked)."),
  session_id: z.string().min(1).optional().describe("Read this past session's messages instead of searching."),
  around: z.number().int().nonnegative().optional().describe("With session_id: show messages around this message number (from a search hit)."),
  limit: z.number().int().positive().max(50).optional().describe("How many hits, sessions or messages to return (default 5 hits, 10 sessions, 20 messages)."),
});

export const sessionSearchTool = defineTool({
  name: "session_search",
  toolset: "memory",
  kind: "search",
  readOnly: true,
  maxResultChars: 40_000,
  description: [
    "Search and read past conversations with this user (every session Hermes has stored, in any editor).",
    "Use it when the user refers to earlier work (\"we talked about this before\", \"like last time\", \"the bug from yesterday\") or when prior context would help.",
    "- {query}: full-text search over all other sessions; one ranked hit per session with a snippet ([matches] marked) and the message number.",
    "- {session_id, around?}: read that session's messages (around a message number from a hit, or from the start), paged by limit.",
    "- {}: the most recent sessions with their titles.",
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
      const hits = await history.search(args.query, { excludeSessionId: ctx.sessionId, limit: args.limit ?? 5 });
      if (hits.length === 0) return { output: { hits: [], note: `Nothing in past sessions matches "${args.query}". Try other words.` } };
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

function describe(summary: { id: string; title?: string; cwd: string; updatedAt: number; messageCount: number }) {
  return { session_id: summary.id, title: summary.title ?? "(untitled)", cwd: summary.cwd, updated: iso(summary.updatedAt), messages: summary.messageCount };
}

const iso = (ms: number) => new Date(ms).toISOString();
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);
