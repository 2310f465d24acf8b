// The shell lexer: turns a command line into word, operator and redirection tokens
// (handling quoting, escapes, comments, here-documents and `$(...)`/backtick/process
// substitutions), then groups the tokens into segments, one per simple command.
// Substitutions are recorded on their word so the parser can look inside them.
import { decodeAnsiC, findBrace, findClose, nestedSubstitutions, readRedirOp, readSubstitution } from "./shell-scan";

/** A `$NAME`, `${...}`, `$(...)` or backtick expansion inside a word's unquoted value. */
export interface Expansion {
  /** Offset and length of the expansion's text inside `value`. */
  at: number;
  len: number;
  /** The parameter name for `$NAME` / `${NAME}`; undefined for anything computed (`${X:-y}`, `$(...)`). */
  name?: string;
  /** The command inside `$(...)` or backticks. */
  sub?: string;
  /** Inside double quotes (no word splitting). */
  quoted: boolean;
}

export interface WordTok {
  t: "word";
  value: string;
  start: number;
  end: number;
  subs: string[];
  quoted: boolean;
  /** Expansions the shell performs at run time, in order. */
  expansions: Expansion[];
  /** An unquoted `*`, `?` or `[...]`: pathname expansion. */
  glob: boolean;
  /** An unquoted `{a,b}` or `{1..3}`: brace expansion. */
  brace: boolean;
  /** Starts with an unquoted `~` (tilde expansion). */
  tilde: boolean;
  /**
   * Written with escapes or partial quoting (`\rm`, `r''m`, `"r"m`, `$'\x72m'`, `'rm'`): as a
   * command name this is unresolved by rule, so a decoding gap can never turn into "safe". A
   * path quoted whole because it holds a space or a slash (`"./my tool.sh"`) is not.
   */
  escaped?: boolean;
}
interface OpTok {
  t: "op";
  op: string;
  start: number;
  end: number;
}
export interface RedirTok {
  t: "redir";
  op: string;
  fd?: string;
  start: number;
  end: number;
  heredoc?: string;
}
type Tok = WordTok | OpTok | RedirTok;

const WORD_BREAK = new Set([" ", "\t", "\r", "\n", ";", "&", "|", "(", ")", "<", ">"]);

/** Arithmetic that names a variable: its value (or an array subscript in it) is evaluated at run time. */
const ARITH_NAMES = /(^|[^0-9A-Za-z_#])[A-Za-z_$`]/;
/** `name[...$(...)...]` or a backtick in a subscript: bash runs it when the name is evaluated (`test -v`, `printf -v`, `read`, `declare -i`, arithmetic). */
const SUBSCRIPT_SUBSTITUTION = /\[[^\]]*(\$\(|`)/;

/**
 * Tokenise `src`. `evaluated` collects the places where the shell evaluates text as code at
 * run time in ways screening cannot follow (arithmetic on variables, subscripts holding
 * substitutions); the parser marks the line unresolved for each.
 */
export function tokenize(src: string, evaluated: string[] = []): Tok[] {
  const toks: Tok[] = [];
  const pendingHeredocs: { delim: string; strip: boolean; tok: RedirTok }[] = [];
  let awaitingDelimiter: RedirTok | undefined;
  let i = 0;
  const n = src.length;

  const readHeredocs = (pos: number): number => {
    for (const doc of pendingHeredocs) {
      const lines: string[] = [];
      while (pos < n) {
        let eol = src.indexOf("\n", pos);
        if (eol < 0) eol = n;
        let line = src.slice(pos, eol);
        pos = eol + 1;
        if (doc.strip) line = line.replace(/^\t+/, "");
        if (line === doc.delim) break;
        lines.push(line);
      }
      doc.tok.heredoc = lines.join("\n");
    }
    pendingHeredocs.length = 0;
    return Math.min(pos, n);
  };

  /** Push the redirection whose operator starts at `at` (token text from `start`); returns the index after it. */
  const pushRedir = (at: number, start: number, fd?: string): number => {
    const op = readRedirOp(src, at);
    const tok: RedirTok = fd === undefined ? { t: "redir", op, start, end: at + op.length } : { t: "redir", op, fd, start, end: at + op.length };
    toks.push(tok);
    if (op === "<<" || op === "<<-") awaitingDelimiter = tok;
    return at + op.length;
  };

  while (i < n) {
    const c = src[i];
    if (c === " " || c === "\t" || c === "\r") {
      i++;
      continue;
    }
    if (c === "\\" && src[i + 1] === "\n") {
      i += 2;
      continue;
    }
    if (c === "\n") {
      toks.push({ t: "op", op: ";", start: i, end: i + 1 });
      i++;
      if (pendingHeredocs.length > 0) i = readHeredocs(i);
      continue;
    }
    if (c === "#") {
      const eol = src.indexOf("\n", i);
      i = eol < 0 ? n : eol;
      continue;
    }
    if (c === ";") {
      const len = src[i + 1] === ";" || src[i + 1] === "&" ? 2 : 1;
      toks.push({ t: "op", op: ";", start: i, end: i + len });
      i += len;
      continue;
    }
    if (c === "&") {
      if (src[i + 1] === "&") {
        toks.push({ t: "op", op: "&&", start: i, end: i + 2 });
        i += 2;
      } else if (src[i + 1] === ">") {
        const op = src[i + 2] === ">" ? "&>>" : "&>";
        toks.push({ t: "redir", op, start: i, end: i + op.length });
        i += op.length;
      } else {
        toks.push({ t: "op", op: "&", start: i, end: i + 1 });
        i++;
      }
      continue;
    }
    if (c === "|") {
      if (src[i + 1] === "|") {
        toks.push({ t: "op", op: "||", start: i, end: i + 2 });
        i += 2;
      } else {
        const len = src[i + 1] === "&" ? 2 : 1;
        toks.push({ t: "op", op: "|", start: i, end: i + len });
        i += len;
      }
      continue;
    }
    if (c === "(" && src[i + 1] === "(") {
      // `(( expr ))`: an arithmetic command; a variable in it may hold `a[$(cmd)]`.
      const close = findClose(src, i + 1);
      const body = src.slice(i + 2, close < 0 ? n : close);
      if (ARITH_NAMES.test(body)) evaluated.push("`(( ... ))` evaluates variables and array subscripts at run time");
    }
    if (c === "(" || c === ")") {
      toks.push({ t: "op", op: c, start: i, end: i + 1 });
      i++;
      continue;
    }
    if ((c === "<" || c === ">") && src[i + 1] === "(") {
      // Process substitution: a word whose inner command runs.
      const close = findClose(src, i + 2);
      const end = close < 0 ? n : close + 1;
      const inner = src.slice(i + 2, close < 0 ? n : close);
      toks.push({ t: "word", value: src.slice(i, end), start: i, end, subs: [inner], quoted: false, expansions: [{ at: 0, len: end - i, sub: inner, quoted: false }], glob: false, brace: false, tilde: false });
      i = end;
      continue;
    }
    if (c === "<" || c === ">") {
      i = pushRedir(i, i);
      continue;
    }

    // A word.
    const start = i;
    let value = "";
    let quoted = false;
    const subs: string[] = [];
    const expansions: Expansion[] = [];
    let glob = false;
    let brace = false;
    /** Reads a `$NAME` / `${...}` / `$(...)` / backtick at `i`, appending it to value; returns the new index or -1. */
    const readExpansion = (inQuotes: boolean): number => {
      const at = value.length;
      const before = subs.length;
      const subEnd = readSubstitution(src, i, subs);
      if (subEnd >= 0 && src.startsWith("$((", i) && ARITH_NAMES.test(src.slice(i + 3, subEnd - 2))) {
        evaluated.push("`$(( ... ))` evaluates variables and array subscripts at run time");
      }
      if (subEnd >= 0) {
        value += src.slice(i, subEnd);
        const sub = subs.length > before ? subs[subs.length - 1] : undefined;
        expansions.push(sub === undefined ? { at, len: subEnd - i, quoted: inQuotes } : { at, len: subEnd - i, sub, quoted: inQuotes });
        return subEnd;
      }
      if (src[i] !== "$") return -1;
      if (src[i + 1] === "{") {
        const close = findBrace(src, i + 2);
        const inner = src.slice(i + 2, close);
        value += src.slice(i, close + 1);
        const exp: Expansion = { at, len: close + 1 - i, quoted: inQuotes };
        if (/^[A-Za-z_][A-Za-z0-9_]*$|^[0-9]$/.test(inner)) exp.name = inner;
        // `${x:-$(cmd)}`, `${x/a/`cmd`}`, `${#a[$(cmd)]}`: the shell runs substitutions nested in a
        // parameter expansion (defaults, patterns, subscripts), so each is exposed for screening.
        const nested = nestedSubstitutions(inner);
        if (nested.length > 0) {
          subs.push(...nested);
          exp.sub = nested[0];
        }
        expansions.push(exp);
        return close + 1;
      }
      const m = /^\$([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(src.slice(i, i + 256));
      if (m) {
        value += m[0];
        expansions.push({ at, len: m[0].length, name: m[1], quoted: inQuotes });
        return i + m[0].length;
      }
      return -1;
    };
    while (i < n && !WORD_BREAK.has(src.charAt(i))) {
      const ch = src[i];
      if (ch === "\\") {
        if (src[i + 1] === "\n") {
          i += 2;
          continue;
        }
        if (i + 1 < n) value += src[i + 1];
        quoted = true;
        i += 2;
        continue;
      }
      if (ch === "'") {
        const j = src.indexOf("'", i + 1);
        const end = j < 0 ? n : j;
        value += src.slice(i + 1, end);
        quoted = true;
        i = end + 1;
        continue;
      }
      if (ch === '"') {
        quoted = true;
        i++;
        while (i < n && src[i] !== '"') {
          const d = src[i];
          if (d === "\\") {
            const next = src[i + 1];
            if (next === "\n") {
              // line continuation inside quotes
            } else if (next === "$" || next === "`" || next === '"' || next === "\\") {
              value += next;
            } else if (next !== undefined) {
              value += "\\" + next;
            }
            i += 2;
            continue;
          }
          const expEnd = readExpansion(true);
          if (expEnd >= 0) {
            i = expEnd;
            continue;
          }
          value += d;
          i++;
        }
        i++; // closing quote
        continue;
      }
      if (ch === "$" && src[i + 1] === "'") {
        let j = i + 2;
        while (j < n && src[j] !== "'") j += src[j] === "\\" ? 2 : 1;
        value += decodeAnsiC(src.slice(i + 2, Math.min(j, n)));
        quoted = true;
        i = j + 1;
        continue;
      }
      if (ch === "$" && src[i + 1] === '"') {
        // $"..." is a translated string: the same as "..." here.
        i++;
        continue;
      }
      const expEnd = readExpansion(false);
      if (expEnd >= 0) {
        i = expEnd;
        continue;
      }
      if (ch === "*" || ch === "?") glob = true;
      else if (ch === "[" && /^\[[^\s;&|()<>\]]+\]/.test(src.slice(i, i + 256))) glob = true;
      else if (ch === "{" && /^\{[^{}\s]*(,|\.\.)[^{}\s]*\}/.test(src.slice(i, i + 512))) brace = true;
      value += ch;
      i++;
    }
    const end = Math.min(i, n);
    // `2>file`, `10<&0`: an all-digit word glued to a redirection is its descriptor.
    if (!quoted && /^\d+$/.test(value) && (src[end] === ">" || src[end] === "<") && src[end + 1] !== "(") {
      i = pushRedir(end, start, value);
      continue;
    }
    if (SUBSCRIPT_SUBSTITUTION.test(value)) evaluated.push(`\`${value}\` holds a command substitution in an array subscript, which the shell may evaluate at run time`);
    const word: WordTok = { t: "word", value, start, end, subs, quoted, expansions, glob, brace, tilde: src[start] === "~" };
    if (quoted && !(/^(?:'[^']*'|"[^"\\$`]*")$/.test(src.slice(start, end)) && /[/\s]/.test(value))) word.escaped = true;
    toks.push(word);
    if (awaitingDelimiter) {
      pendingHeredocs.push({ delim: value, strip: awaitingDelimiter.op === "<<-", tok: awaitingDelimiter });
      awaitingDelimiter = undefined;
    }
  }
  return toks;
}

export interface Segment {
  words: WordTok[];
  redirs: { tok: RedirTok; target?: WordTok }[];
  start: number;
  end: number;
  sepAfter: string;
}

/** Group tokens into simple commands, split at operators; each redirection takes the word after it as its target. */
export function segment(toks: Tok[]): Segment[] {
  const out: Segment[] = [];
  let cur: Segment | undefined;
  const ensure = (start: number): Segment => {
    if (!cur) cur = { words: [], redirs: [], start, end: start, sepAfter: ";" };
    return cur;
  };
  for (let k = 0; k < toks.length; k++) {
    const tok = toks[k]!; // k < toks.length
    if (tok.t === "op") {
      if (cur) {
        cur.sepAfter = tok.op;
        out.push(cur);
        cur = undefined;
      }
      continue;
    }
    const seg = ensure(tok.start);
    if (tok.t === "word") {
      seg.words.push(tok);
      seg.end = tok.end;
    } else {
      const next = toks[k + 1];
      if (next && next.t === "word") {
        seg.redirs.push({ tok, target: next });
        seg.end = next.end;
        k++;
      } else {
        seg.redirs.push({ tok });
        seg.end = tok.end;
      }
    }
  }
  if (cur) out.push(cur);
  return out;
}
