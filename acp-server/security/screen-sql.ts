// Command-screen rules for database clients: SQL `DROP`, `TRUNCATE` and `DELETE FROM`
// without `WHERE`, MongoDB drops and delete-everything calls, and Redis `FLUSHALL`/`FLUSHDB`.
// The statement text is gathered from arguments, here-documents, `<<<` strings and
// `echo`/`printf` earlier in the same pipe.
import type { SimpleCommand } from "./shell-parse";
import type { Screen } from "./screen-rule";
import { MONGO_CLIENTS, SQL_CLIENTS } from "./programs/tables";


export function isDatabaseClient(program: string): boolean {
  return SQL_CLIENTS.has(program) || MONGO_CLIENTS.has(program);
}

export function checkRedis(s: Screen, cmd: SimpleCommand, all: SimpleCommand[]): void {
  const texts = [...cmd.args, ...cmd.redirects.map((r) => r.heredoc ?? (r.op === "<<<" ? r.target : ""))];
  // `echo FLUSHALL | redis-cli`: redis-cli reads commands from stdin.
  for (const c of all) if (c.pipeline === cmd.pipeline && c.stage < cmd.stage && (c.program === "echo" || c.program === "printf")) texts.push(...c.args);
  if (texts.some((t) => /(^|\s)flush(all|db)(\s|$)/i.test(t))) s.add("dangerous", "redis-flush", "redis-cli FLUSHALL/FLUSHDB erases the whole Redis database");
}

export function checkSql(s: Screen, cmd: SimpleCommand, all: SimpleCommand[]): void {
  const texts = [...cmd.args];
  for (const r of cmd.redirects) {
    if (r.heredoc !== undefined) texts.push(r.heredoc);
    if (r.op === "<<<") texts.push(r.target);
  }
  // `echo "DROP TABLE x" | psql`
  for (const c of all) {
    if (c.pipeline === cmd.pipeline && c.stage < cmd.stage && (c.program === "echo" || c.program === "printf")) texts.push(...c.args);
  }
  const text = texts.join(" ");
  if (MONGO_CLIENTS.has(cmd.program)) {
    if (/\.drop(Database)?\s*\(/.test(text)) s.add("dangerous", "mongo-drop", `${cmd.program} drops a collection or database`);
    if (/\.(deleteMany|remove)\s*\(\s*\{\s*\}\s*\)/.test(text)) s.add("dangerous", "mongo-delete-all", `${cmd.program} deletes every document in a collection`);
  }
  const m = /\bdrop\s+(table|database|schema|collection)\b/i.exec(text);
  if (m) s.add("dangerous", "sql-drop", `${cmd.program} runs DROP ${(m[1] ?? "").toUpperCase()}, permanently deleting it and its data`);
  if (/\btruncate\b/i.test(text)) s.add("dangerous", "sql-truncate", `${cmd.program} runs TRUNCATE, emptying a table`);
  for (const stmt of text.split(";")) {
    if (/\bdelete\s+from\s+\S+/i.test(stmt) && !/\bwhere\b/i.test(stmt)) {
      s.add("dangerous", "sql-delete-all", `${cmd.program} runs DELETE FROM without WHERE, deleting every row`);
    }
  }
}
