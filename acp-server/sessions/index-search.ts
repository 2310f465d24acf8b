// Full-text search over the index: FTS4 MATCH, BM25 per message, one hit per session (its
// best message, boosted a little by how many of its messages matched), snippets for the
// hits that are returned only (snippet() is the expensive part).
import type { SqlValue } from "sql.js";
import { bm25, MATCHINFO_FORMAT, plainWordsQuery, sessionScore, toMatchQueries } from "./fts-query";
import type { SqlDb } from "./sql-db";
import type { SearchHit, SearchOptions } from "./types";

const RANK_FUNCTION = "hermes_bm25";
/**
 * Most matching messages scored per query, newest first. Only a word in most messages gets
 * near it (it then says little about relevance anyway); it bounds the cost of such queries.
 */
const MAX_SCORED = 10_000;
/** Tokens of context in a snippet. */
const SNIPPET_TOKENS = 16;

/** Makes the ranking function available to the queries below (once per database). */
export function registerRankFunction(db: SqlDb): void {
  db.db.create_function(RANK_FUNCTION, (blob: Uint8Array, length: number) => bm25(blob, length));
}

export function searchIndex(db: SqlDb, query: string, options: SearchOptions & { realCwd?: string }): SearchHit[] {
  const limit = Math.max(1, Math.min(options.limit ?? 10, 100));
  const queries = toMatchQueries(query);
  if (!queries) return [];
  const candidates = [queries.all, queries.any, plainWordsQuery(query)].filter((q): q is string => q !== undefined);
  for (const match of candidates) {
    let rows: SqlValue[][];
    try {
      rows = bestPerSession(db, match, options);
    } catch (error) {
      // A MATCH expression FTS refused (the quoting above should prevent it): try the next,
      // plainer form. Anything else is a real failure.
      if (!/MATCH|fts/i.test((error as Error).message)) throw error;
      continue;
    }
    if (rows.length > 0) return toHits(db, match, rows, limit);
  }
  return [];
}

function bestPerSession(db: SqlDb, match: string, options: SearchOptions & { realCwd?: string }): SqlValue[][] {
  // matchinfo() only works while the FTS cursor is on the row (not inside an aggregate), so
  // scores are computed in a materialized scan with the FTS table as the outer loop, newest
  // matches first and at most MAX_SCORED of them. Then GROUP BY with a single max(): SQLite
  // takes the bare columns (seq, role, docid) from the row holding the maximum, which is
  // exactly "the session's best message".
  const filters = ["s.has_meta = 1"];
  const params: SqlValue[] = [match, options.excludeSessionId ?? "", MAX_SCORED];
  if (options.realCwd !== undefined) {
    filters.push("s.real_cwd = ?");
    params.push(options.realCwd);
  }
  return db.all(
    `WITH scored AS MATERIALIZED (
       SELECT m.session_id AS session_id, m.seq AS seq, m.role AS role, m.id AS docid,
              ${RANK_FUNCTION}(matchinfo(messages_fts, '${MATCHINFO_FORMAT}'), m.words) AS score
       FROM messages_fts CROSS JOIN messages m ON m.id = messages_fts.docid
       WHERE messages_fts MATCH ? AND m.session_id != ?
       ORDER BY messages_fts.docid DESC LIMIT ?
     )
     SELECT g.session_id, g.seq, g.role, g.docid, g.best, g.matches, s.title, s.cwd, s.updated_at FROM (
       SELECT session_id, seq, role, docid, max(score) AS best, count(*) AS matches FROM scored GROUP BY session_id
     ) g JOIN sessions s ON s.id = g.session_id
     WHERE ${filters.join(" AND ")}`,
    params,
  );
}

function toHits(db: SqlDb, match: string, rows: SqlValue[][], limit: number): SearchHit[] {
  const ranked = rows
    .map((row) => ({ row, score: sessionScore(Number(row[4]), Number(row[5])) }))
    .sort((a, b) => b.score - a.score || Number(b.row[8]) - Number(a.row[8]))
    .slice(0, limit);
  const snippets = snippetsOf(db, match, ranked.map(({ row }) => Number(row[3])));
  return ranked.map(({ row, score }) => {
    const [sessionId, seq, role, docid, , , title, cwd, updatedAt] = row;
    const hit: SearchHit = {
      sessionId: String(sessionId),
      cwd: String(cwd),
      updatedAt: Number(updatedAt),
      seq: Number(seq),
      role: String(role),
      snippet: snippets.get(Number(docid)) ?? "",
      score,
    };
    if (title !== null) hit.title = String(title);
    return hit;
  });
}

/**
 * Snippets of the given messages in one pass. Evaluating MATCH walks each term's doclist
 * (8 ms for a word in most of 100,000 messages), so it is done once for all hits: the docid
 * range bounds the walk, and "+docid IN" (the + keeps it from becoming a docid lookup, which
 * cannot evaluate MATCH) picks the rows.
 */
function snippetsOf(db: SqlDb, match: string, docids: number[]): Map<number, string> {
  const snippets = new Map<number, string>();
  if (docids.length === 0) return snippets;
  const rows = db.all(
    `SELECT docid, snippet(messages_fts, '[', ']', '…', -1, ${SNIPPET_TOKENS}) FROM messages_fts
     WHERE messages_fts MATCH ? AND docid BETWEEN ? AND ? AND +docid IN (${docids.map(() => "?").join(", ")})`,
    [match, Math.min(...docids), Math.max(...docids), ...docids],
  );
  for (const [docid, snippet] of rows) snippets.set(Number(docid), String(snippet));
  return snippets;
}
