// Command-screen rules for database clients: SQL `DROP`, `TRUNCATE` and `DELETE FROM`
// without `WHERE`, MongoDB drops and delete-everything calls, and Redis `FLUSHALL`/`FLUSHDB`.
// The statement text is gathered from arguments, here-documents, `<<<` strings and
// `echo`/`printf` earlier in the same pipe. Comments are read as SQL reads them: a block
// comment (nested too) or a `--` comment separates words, so `DROP/**/TABLE` is `DROP TABLE`, and a
// `WHERE` inside a comment, a string or a quoted identifier (`DELETE FROM "where"`) is no
// WHERE. SQL whose text the screen cannot see — a file (`-f x.sql`, `< x.sql`, `cat x.sql |`),
// a psql `\i`, MySQL `source`, sqlite `.read` — could hold anything: unresolved.
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

interface SqlReading {
  /** A backslash escapes the next character inside a string (MySQL, PostgreSQL's E'' strings), or is a plain character (standard SQL). */
  backslashEscapes: boolean;
  /** Replace strings and quoted identifiers by a placeholder (for a WHERE that must be a keyword, not a name). */
  dropQuoted: boolean;
}

/**
 * SQL as one dialect reads it, comments turned into spaces: block comments nested as
 * PostgreSQL nests them, `--` and `#` to the end of the line; the text of MySQL's `/*!`
 * comments runs, so it stays. Dialects disagree on backslashes in strings, so callers read
 * both ways (a string one dialect ends early could hide a keyword from the other).
 */
function readSql(sql: string, how: SqlReading): string {
  let out = "";
  let depth = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql.charAt(i);
    const pair = sql.slice(i, i + 2);
    const dollar = depth === 0 ? /^\$(\w*)\$/.exec(sql.slice(i)) : null;
    if (depth === 0 && (c === "'" || c === '"' || c === "`" || dollar)) {
      // A string or quoted identifier, to its closing quote (a doubled quote stays inside).
      const close = dollar ? dollar[0] : c;
      let j = i + close.length;
      for (; j < sql.length; j++) {
        if (!dollar && how.backslashEscapes && sql.charAt(j) === "\\") j++;
        else if (close.length === 1 && sql.charAt(j) === close && sql.charAt(j + 1) === close) j++;
        else if (sql.startsWith(close, j)) break;
      }
      const end = Math.min(sql.length, j + close.length);
      out += how.dropQuoted ? " x " : sql.slice(i, end);
      i = end - 1;
      continue;
    }
    if (pair === "/*" && sql.charAt(i + 2) === "!" && depth === 0) {
      out += " "; // MySQL runs the text of a `/*!50000 … */` comment: keep it, drop the markers
      i += 2;
      while (/\d/.test(sql.charAt(i + 1))) i++;
      continue;
    }
    if (pair === "/*") {
      depth++;
      i++;
      continue;
    }
    if (depth > 0) {
      if (pair === "*/") {
        depth--;
        i++;
        if (depth === 0) out += " ";
      }
      continue;
    }
    if (pair === "*/") {
      out += " "; // the end of a `/*!` comment
      i++;
      continue;
    }
    if (pair === "--" || c === "#") {
      while (i < sql.length && sql.charAt(i) !== "\n") i++;
      out += " ";
      continue;
    }
    out += c;
  }
  return out;
}

/** Every reading the screen checks: each backslash rule, strings kept (for keywords) or dropped (for WHERE). */
const READINGS = (dropQuoted: boolean): SqlReading[] => [
  { backslashEscapes: false, dropQuoted },
  { backslashEscapes: true, dropQuoted },
];

/** `cat <<EOF … EOF | psql`: cat prints only a here-document, whose text the screen reads. */
function literalCat(cmd: SimpleCommand): boolean {
  return cmd.program === "cat" && cmd.args.length === 0 && cmd.redirects.some((r) => r.heredoc !== undefined || (r.op === "<<<" && !r.dynamic));
}

/** Where the client's stdin comes from, when it is not text the screen can read. */
function unseenInput(cmd: SimpleCommand, all: SimpleCommand[]): string | undefined {
  const file = cmd.redirects.find((r) => r.op === "<" || r.op === "<>");
  if (file) return `the file ${file.target}`;
  if (cmd.stage === 0 || cmd.redirects.some((r) => r.heredoc !== undefined || r.op === "<<<")) return undefined;
  const before = all.find((c) => c.pipeline === cmd.pipeline && c.stage === cmd.stage - 1 && c.depth === cmd.depth);
  if (before && (before.program === "echo" || before.program === "printf") && before.unresolved.length === 0) return undefined;
  if (before && literalCat(before)) return undefined;
  return `the output of ${before?.program || "a command"}`;
}

/** A WHERE clause that holds for every row. */
const ALWAYS_TRUE = /\bwhere\s+(?:true|1|not\s+false|(\d+|x|[a-z_]\w*)\s*=\s*\1)\s*(?:$|\blimit\b|\breturning\b|\border\b)/i;

/** Options and client commands that run SQL from a file: psql -f, sqlcmd -i, mysql `source`, psql `\i`, sqlite `.read`. */
const SQL_FILE_OPTION = /^(-f|--file(=.*)?|-i|--input-file(=.*)?|--init-command(=.*)?|-init)$/;
const SQL_FILE_COMMAND = /(^|[\s;])(\\i|\\ir|\\include|\\include_relative|\\\.|source|\.read)\s+\S/i;
/** SQL built at run time: dynamic EXECUTE, psql's \gexec, PREPARE … FROM a variable, COPY … PROGRAM (a shell command on the server). */
const DYNAMIC_SQL = /\bexecute\b|\\gexec\b|\bprepare\s+\w+\s+from\b|\bprogram\s+'|(^|[\s;])\\!/i;

/** The words of a client's arguments that may be SQL: operands and option values (`--command=…`), not option names. */
function sqlWords(args: string[]): string[] {
  return args.flatMap((a) => (!a.startsWith("-") ? [a] : a.includes("=") ? [a.slice(a.indexOf("=") + 1)] : []));
}

export function checkSql(s: Screen, cmd: SimpleCommand, all: SimpleCommand[]): void {
  const texts = sqlWords(cmd.args);
  for (const r of cmd.redirects) {
    if (r.heredoc !== undefined) texts.push(r.heredoc);
    if (r.op === "<<<") texts.push(r.target);
  }
  // `echo "DROP TABLE x" | psql`
  for (const c of all) {
    if (c.pipeline === cmd.pipeline && c.stage < cmd.stage && (c.program === "echo" || c.program === "printf")) texts.push(...c.args);
    if (c.pipeline === cmd.pipeline && c.stage < cmd.stage && literalCat(c)) for (const r of c.redirects) texts.push(r.heredoc ?? (r.op === "<<<" ? r.target : ""));
  }
  // One text per line: a `--` comment in one ends with it, as each is its own statement text.
  const raw = texts.join("\n");
  const text = READINGS(false).map((how) => readSql(raw, how)).join("\n");
  if (MONGO_CLIENTS.has(cmd.program)) {
    if (/\.drop(Database)?\s*\(/.test(raw)) s.add("dangerous", "mongo-drop", `${cmd.program} drops a collection or database`);
    if (/\.(deleteMany|remove)\s*\(\s*\{\s*\}\s*\)/.test(raw)) s.add("dangerous", "mongo-delete-all", `${cmd.program} deletes every document in a collection`);
  }
  // Keywords are looked for in strings too: `DO $$ … EXECUTE 'DROP TABLE x' $$` runs them.
  const m = /\bdrop\s+(table|database|schema|collection|view|index|owned|extension|user|role)\b/i.exec(text);
  if (m) s.add("dangerous", "sql-drop", `${cmd.program} runs DROP ${(m[1] ?? "").toUpperCase()}, permanently deleting it and its data`);
  if (/\btruncate\b/i.test(text)) s.add("dangerous", "sql-truncate", `${cmd.program} runs TRUNCATE, emptying a table`);
  // Under either backslash rule, a statement that deletes or updates with no WHERE keyword touches every row.
  const statements = READINGS(true).flatMap((how) => readSql(raw, how).split(";"));
  if (statements.some((stmt) => /\bdelete\s+from\s+\S+/i.test(stmt) && !/\bwhere\b/i.test(stmt))) {
    s.add("dangerous", "sql-delete-all", `${cmd.program} runs DELETE FROM without WHERE, deleting every row`);
  }
  // `WHERE true`, `WHERE 1=1`, `WHERE id = id`, `WHERE 'a' = 'a'` (a placeholder once strings are dropped): every row.
  if (statements.some((stmt) => /\bdelete\s+from\s+\S+/i.test(stmt) && ALWAYS_TRUE.test(stmt))) {
    s.add("dangerous", "sql-delete-all", `${cmd.program} runs DELETE FROM with a WHERE that is always true, deleting every row`);
  }
  if (statements.some((stmt) => /\bupdate\s+\S+\s+set\b/i.test(stmt) && (!/\bwhere\b/i.test(stmt) || ALWAYS_TRUE.test(stmt)))) {
    s.add("dangerous", "sql-update-all", `${cmd.program} runs UPDATE without WHERE, changing every row`);
  }
  if (!SQL_CLIENTS.has(cmd.program)) return;
  if (DYNAMIC_SQL.test(text)) s.unresolved("sql-dynamic", `${cmd.program} runs SQL built at run time (EXECUTE, \\gexec, COPY … PROGRAM, \\!), which screening cannot read`);
  // `psql -v x=DROP` with `:x` in the SQL: the statement is put together by the client.
  if (cmd.args.some((a) => /^(-v|--set|--variable)(=|$)/.test(a)) && /(^|[^:\w]):['"]?[A-Za-z_]\w*/.test(text)) s.unresolved("sql-dynamic", `${cmd.program} fills SQL from variables (-v), which screening does not put together`);
  const fromFile = cmd.args.some((a) => SQL_FILE_OPTION.test(a)) || SQL_FILE_COMMAND.test(text);
  const input = fromFile ? "a file" : unseenInput(cmd, all);
  if (input !== undefined) s.unresolved("sql-file", `${cmd.program} runs SQL from ${input}, which screening does not read`);
}
