// The index's tables. Bump SCHEMA_VERSION on any change: a state.db of another version is
// dropped and rebuilt from the journals (it is only a cache).
import type { Database, SqlJsStatic } from "sql.js";
import { REDACTION_VERSION } from "../util/redact";

const TABLES_VERSION = 4;
/**
 * The tables' version and the redaction rules' (REDACTION_VERSION): an index built under older
 * rules still holds what they let through, so it is dropped and rebuilt, redacted anew.
 */
export const SCHEMA_VERSION = TABLES_VERSION * 1000 + REDACTION_VERSION;

const SCHEMA = `
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  has_meta INTEGER NOT NULL DEFAULT 0,
  cwd TEXT NOT NULL DEFAULT '',
  real_cwd TEXT NOT NULL DEFAULT '',
  -- The extra roots (ACP additionalDirectories) as a JSON array; NULL: none.
  extra_roots TEXT,
  title TEXT,
  title_source TEXT,
  mode TEXT,
  model_id TEXT,
  provider TEXT,
  model TEXT,
  created_at INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL DEFAULT 0,
  parent_id TEXT,
  source TEXT NOT NULL DEFAULT '',
  message_count INTEGER NOT NULL DEFAULT 0,
  tool_call_count INTEGER NOT NULL DEFAULT 0,
  tokens INTEGER NOT NULL DEFAULT 0,
  journal_offset INTEGER NOT NULL DEFAULT 0,
  journal_size INTEGER NOT NULL DEFAULT 0,
  journal_mtime REAL NOT NULL DEFAULT 0
);
CREATE INDEX sessions_by_update ON sessions(updated_at, id);
CREATE INDEX sessions_by_cwd ON sessions(real_cwd, updated_at, id);
CREATE TABLE messages (
  id INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  role TEXT NOT NULL,
  -- Tokens of text as FTS counts them, for ranking. The small columns come first so a
  -- search reads them without touching the (possibly overflowing) text.
  words INTEGER NOT NULL DEFAULT 0,
  at INTEGER NOT NULL,
  tokens INTEGER NOT NULL DEFAULT 0,
  -- JSON; NULL when the content is exactly the text column (see message-text.ts).
  content TEXT,
  tool_calls TEXT,
  tool_call_id TEXT,
  reasoning TEXT,
  text TEXT NOT NULL,
  UNIQUE (session_id, seq)
);
-- External content: the FTS table indexes messages.text without a second copy of it.
-- Rows must be removed from messages_fts while their messages row still exists.
CREATE VIRTUAL TABLE messages_fts USING fts4(content="messages", text, tokenize=unicode61);
PRAGMA user_version = ${SCHEMA_VERSION};
`;

// sql.js keeps the database in an emulated in-memory file; a rollback journal in that file
// system doubled the cost of every write. The journal stays in memory, and there is no disk
// to sync: durability comes from the session journals, state.db is saved by export().
const PRAGMAS = "PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY;";

/**
 * Opens state.db's bytes if they hold an index of this schema version, otherwise a new
 * empty index. Returns why the bytes were not used, for the log.
 */
export function openDatabase(SQL: SqlJsStatic, data: Uint8Array | undefined): { db: Database; discarded?: string } {
  let discarded: string | undefined;
  if (data && data.length > 0) {
    let db: Database | undefined;
    try {
      db = new SQL.Database(data);
      const version = db.exec("PRAGMA user_version")[0]?.values[0]?.[0];
      if (version !== SCHEMA_VERSION) throw new Error(`schema version ${String(version)}, expected ${SCHEMA_VERSION}`);
      // Touch every table, so a damaged file fails here rather than on the first search.
      db.exec("SELECT count(*) FROM sessions; SELECT max(id) FROM messages; SELECT count(*) FROM messages_fts WHERE docid = 0");
      db.exec(PRAGMAS);
      return { db };
    } catch (error) {
      db?.close();
      discarded = (error as Error).message;
    }
  }
  const db = new SQL.Database();
  db.exec(PRAGMAS);
  db.exec(SCHEMA);
  return { db, discarded };
}
