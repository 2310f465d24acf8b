// A small, dependency-free shell-line parser for screening commands before they run.
// It is not a full shell grammar: it splits a line into simple commands, unquotes words,
// records redirections and pipes, and looks inside the places where a second command can
// hide (command substitution, `bash -c '...'`, `eval`, `sudo`/`env`/`xargs` prefixes, ...).
// When in doubt it errs towards exposing more commands, never fewer.

export interface Redirect {
  /** The operator: ">", ">>", ">|", "&>", "&>>", ">&", "<", "<<", "<<-", "<<<", "<>", "<&". */
  op: string;
  /** The file descriptor written before the operator ("2" in `2>err.log`), if any. */
  fd?: string;
  /** The unquoted target word (a file, a descriptor number, or a here-document delimiter). */
  target: string;
  /** The body of a here-document (`<<EOF ... EOF`). */
  heredoc?: string;
}

export interface SimpleCommand {
  /** Normalised program name: no leading backslash, basename of a path; "" when only redirections/assignments. */
  program: string;
  /** Unquoted argument words after the program. */
  args: string[];
  redirects: Redirect[];
  /** The program of the next command in the same pipe (`curl x | sh` → "sh" on the curl command). */
  pipedTo?: string;
  /** The source text this command came from. */
  raw: string;
  /** Prefixes that were stripped to reach the program, outermost first: "sudo", "env", "xargs", "bash -c", "eval", ... */
  wrappers: string[];
  /** Leading `NAME=value` assignments (including those after `env`/`sudo`). */
  assignments: string[];
  /** Identifies the pipeline this command belongs to (unique within one parse). */
  pipeline: number;
  /** Position inside its pipeline, 0 for the first command. */
  stage: number;
  /** Nesting depth: 0 for the typed line, higher inside substitutions and `-c` scripts. */
  depth: number;
}

const MAX_DEPTH = 8;

interface WordTok {
  t: "word";
  value: string;
  start: number;
  end: number;
  subs: string[];
  quoted: boolean;
}
interface OpTok {
  t: "op";
  op: string;
  start: number;
  end: number;
}
interface RedirTok {
  t: "redir";
  op: string;
  fd?: string;
  start: number;
  end: number;
  heredoc?: string;
}
type Tok = WordTok | OpTok | RedirTok;

const WORD_BREAK = new Set([" ", "\t", "\r", "\n", ";", "&", "|", "(", ")", "<", ">"]);

/** Index just past the closing backtick; `i` is just after the opening one. */
function skipBacktick(src: string, i: number): number {
  while (i < src.length) {
    const c = src[i];
    if (c === "\\") {
      i += 2;
      continue;
    }
    if (c === "`") return i + 1;
    i++;
  }
  return src.length;
}

/** Index just past the closing double quote; `i` is just after the opening one. */
function skipDouble(src: string, i: number): number {
  while (i < src.length) {
    const c = src[i];
    if (c === "\\") {
      i += 2;
      continue;
    }
    if (c === '"') return i + 1;
    if (c === "`") {
      i = skipBacktick(src, i + 1);
      continue;
    }
    if (c === "$" && src[i + 1] === "(") {
      const close = findClose(src, i + 2);
      i = close < 0 ? src.length : close + 1;
      continue;
    }
    i++;
  }
  return src.length;
}

/** Index of the `)` matching an already-open `(`; `i` is just after it. -1 if unbalanced. */
function findClose(src: string, i: number): number {
  let depth = 1;
  while (i < src.length) {
    const c = src[i];
    if (c === "\\") {
      i += 2;
      continue;
    }
    if (c === "'") {
      const j = src.indexOf("'", i + 1);
      i = j < 0 ? src.length : j + 1;
      continue;
    }
    if (c === '"') {
      i = skipDouble(src, i + 1);
      continue;
    }
    if (c === "`") {
      i = skipBacktick(src, i + 1);
      continue;
    }
    if (c === "(") depth++;
    else if (c === ")") {
      depth--;
      if (depth === 0) return i;
    }
    i++;
  }
  return -1;
}

/** Index of the `}` closing a `${`; `i` is just after the `{`. */
function findBrace(src: string, i: number): number {
  let depth = 1;
  while (i < src.length) {
    const c = src[i];
    if (c === "\\") {
      i += 2;
      continue;
    }
    if (c === "{") depth++;
    else if (c === "}") {
      depth--;
      if (depth === 0) return i;
    }
    i++;
  }
  return src.length - 1;
}

function unescapeBacktick(inner: string): string {
  return inner.replace(/\\([`\\$])/g, "$1");
}

function decodeAnsiC(body: string): string {
  return body.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)/g, (_m, e: string) => {
    if (e[0] === "x") return String.fromCharCode(parseInt(e.slice(1), 16));
    if (/^[0-7]+$/.test(e)) return String.fromCharCode(parseInt(e, 8));
    const map: Record<string, string> = { n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", e: "\x1b", E: "\x1b", f: "\f", v: "\v" };
    return map[e] ?? e;
  });
}

function readRedirOp(src: string, i: number): string {
  const two = src.slice(i, i + 2);
  const three = src.slice(i, i + 3);
  if (src[i] === ">") {
    if (two === ">>" || two === ">|" || two === ">&") return two;
    return ">";
  }
  if (three === "<<<") return three;
  if (three === "<<-") return three;
  if (two === "<<" || two === "<>" || two === "<&") return two;
  return "<";
}

function tokenize(src: string): Tok[] {
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
      toks.push({ t: "word", value: src.slice(i, end), start: i, end, subs: [inner], quoted: false });
      i = end;
      continue;
    }
    if (c === "<" || c === ">") {
      const op = readRedirOp(src, i);
      const tok: RedirTok = { t: "redir", op, start: i, end: i + op.length };
      toks.push(tok);
      if (op === "<<" || op === "<<-") awaitingDelimiter = tok;
      i += op.length;
      continue;
    }

    // A word.
    const start = i;
    let value = "";
    let quoted = false;
    const subs: string[] = [];
    while (i < n && !WORD_BREAK.has(src[i])) {
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
          if (d === "$" && src[i + 1] === "(") {
            const close = findClose(src, i + 2);
            const end = close < 0 ? n : close + 1;
            if (src[i + 2] !== "(") subs.push(src.slice(i + 2, close < 0 ? n : close));
            value += src.slice(i, end);
            i = end;
            continue;
          }
          if (d === "`") {
            const end = skipBacktick(src, i + 1);
            subs.push(unescapeBacktick(src.slice(i + 1, end - 1)));
            value += src.slice(i, end);
            i = end;
            continue;
          }
          value += d;
          i++;
        }
        i++; // closing quote
        continue;
      }
      if (ch === "$" && src[i + 1] === "(") {
        const close = findClose(src, i + 2);
        const end = close < 0 ? n : close + 1;
        if (src[i + 2] !== "(") subs.push(src.slice(i + 2, close < 0 ? n : close));
        value += src.slice(i, end);
        i = end;
        continue;
      }
      if (ch === "$" && src[i + 1] === "{") {
        const close = findBrace(src, i + 2);
        value += src.slice(i, close + 1);
        i = close + 1;
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
      if (ch === "`") {
        const end = skipBacktick(src, i + 1);
        subs.push(unescapeBacktick(src.slice(i + 1, end - 1)));
        value += src.slice(i, end);
        i = end;
        continue;
      }
      value += ch;
      i++;
    }
    const end = Math.min(i, n);
    // `2>file`, `10<&0`: an all-digit word glued to a redirection is its descriptor.
    if (!quoted && /^\d+$/.test(value) && (src[end] === ">" || src[end] === "<") && src[end + 1] !== "(") {
      const op = readRedirOp(src, end);
      const tok: RedirTok = { t: "redir", op, fd: value, start, end: end + op.length };
      toks.push(tok);
      if (op === "<<" || op === "<<-") awaitingDelimiter = tok;
      i = end + op.length;
      continue;
    }
    const word: WordTok = { t: "word", value, start, end, subs, quoted };
    toks.push(word);
    if (awaitingDelimiter) {
      pendingHeredocs.push({ delim: value, strip: awaitingDelimiter.op === "<<-", tok: awaitingDelimiter });
      awaitingDelimiter = undefined;
    }
  }
  return toks;
}

interface Segment {
  words: WordTok[];
  redirs: { tok: RedirTok; target?: WordTok }[];
  start: number;
  end: number;
  sepAfter: string;
}

function segment(toks: Tok[]): Segment[] {
  const out: Segment[] = [];
  let cur: Segment | undefined;
  const ensure = (start: number): Segment => {
    if (!cur) cur = { words: [], redirs: [], start, end: start, sepAfter: ";" };
    return cur;
  };
  for (let k = 0; k < toks.length; k++) {
    const tok = toks[k];
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

const SKIPPED_KEYWORDS = new Set(["!", "{", "}", "then", "do", "else", "elif", "if", "while", "until", "fi", "done", "esac"]);
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "posh"]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

/** Strip a leading backslash and take the basename of a path, as the shell would resolve it. */
export function normaliseProgram(word: string): string {
  let name = word;
  while (name.startsWith("\\")) name = name.slice(1);
  if (name.includes("/") && !name.includes("$(") && !name.includes("`")) {
    const trimmed = name.replace(/\/+$/, "");
    name = trimmed.slice(trimmed.lastIndexOf("/") + 1);
  }
  return name;
}

/** Skip options of a wrapper; `withArg` options consume the following word. Returns the index of the first operand. */
function skipOptions(words: string[], k: number, withArg: Set<string>, opts: { stopAtAssignment?: boolean } = {}): number {
  while (k < words.length) {
    const w = words[k];
    if (w === "--") return k + 1;
    if (!w.startsWith("-") || w === "-") return k;
    if (opts.stopAtAssignment && ASSIGNMENT.test(w)) return k;
    if (w.startsWith("--")) {
      const name = w.includes("=") ? w.slice(0, w.indexOf("=")) : w;
      k += withArg.has(name) && !w.includes("=") ? 2 : 1;
      continue;
    }
    // A short cluster: the last letter may take an argument (`-u root`, `-uroot`).
    const last = "-" + w[w.length - 1];
    const first = "-" + w[1];
    if (w.length === 2 && withArg.has(w)) k += 2;
    else if (w.length > 2 && withArg.has(first)) k += 1; // argument glued on: -uroot
    else if (withArg.has(last)) k += 2;
    else k += 1;
  }
  return k;
}

const SUDO_ARGS = new Set(["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "-R", "--user", "--group", "--prompt", "--chdir", "--role", "--type", "--other-user", "--close-from", "--host", "--command-timeout", "--chroot"]);
const DOAS_ARGS = new Set(["-u", "-C"]);
const ENV_ARGS = new Set(["-u", "-C", "-S", "--unset", "--chdir", "--split-string", "-P"]);
const NICE_ARGS = new Set(["-n", "--adjustment"]);
const TIME_ARGS = new Set(["-f", "-o", "--format", "--output"]);
const TIMEOUT_ARGS = new Set(["-s", "-k", "--signal", "--kill-after"]);
const XARGS_ARGS = new Set(["-I", "-n", "-P", "-L", "-d", "-E", "-s", "-a", "--max-args", "--max-procs", "--max-lines", "--delimiter", "--eof", "--max-chars", "--arg-file", "--replace", "--process-slot-var"]);
const IONICE_ARGS = new Set(["-c", "-n", "--class", "--classdata"]);
const STDBUF_ARGS = new Set(["-i", "-o", "-e", "--input", "--output", "--error"]);
const EXEC_ARGS = new Set(["-a"]);
const WATCH_ARGS = new Set(["-n", "--interval", "-q", "--equexit", "-s", "--shotsdir"]);
const SHELL_ARGS = new Set(["-o", "+o", "-O", "+O", "--rcfile", "--init-file"]);

interface Built {
  main: SimpleCommand;
  nested: SimpleCommand[];
}

class Parser {
  private nextPipeline = 0;

  parseLine(src: string, depth: number, wrappers: string[]): SimpleCommand[] {
    if (depth > MAX_DEPTH) return [];
    const segs = segment(tokenize(src));
    const built: { pre: SimpleCommand[]; b: Built }[] = [];
    let pipeline = this.nextPipeline++;
    let stage = 0;
    for (const seg of segs) {
      const pre: SimpleCommand[] = [];
      for (const w of seg.words) for (const sub of w.subs) pre.push(...this.parseLine(sub, depth + 1, []));
      for (const r of seg.redirs) for (const sub of r.target?.subs ?? []) pre.push(...this.parseLine(sub, depth + 1, []));
      const redirects: Redirect[] = seg.redirs.map(({ tok, target }) => {
        const red: Redirect = { op: tok.op, target: target?.value ?? "" };
        if (tok.fd !== undefined) red.fd = tok.fd;
        if (tok.heredoc !== undefined) red.heredoc = tok.heredoc;
        return red;
      });
      const b = this.fromWords(
        seg.words.map((w) => w.value),
        { redirects, raw: src.slice(seg.start, seg.end), pipeline, stage, depth, wrappers: [...wrappers] },
      );
      built.push({ pre, b });
      if (seg.sepAfter === "|") stage++;
      else {
        pipeline = this.nextPipeline++;
        stage = 0;
      }
    }
    const out: SimpleCommand[] = [];
    for (let k = 0; k < built.length; k++) {
      const { pre, b } = built[k];
      const next = built[k + 1];
      if (next && next.b.main.pipeline === b.main.pipeline) b.main.pipedTo = next.b.main.program;
      out.push(...pre, b.main, ...b.nested);
    }
    return out;
  }

  /** Unwrap prefixes (assignments, sudo, env, xargs, ...) and find nested scripts. */
  private fromWords(
    words: string[],
    base: { redirects: Redirect[]; raw: string; pipeline: number; stage: number; depth: number; wrappers: string[] },
  ): Built {
    const wrappers = base.wrappers;
    const assignments: string[] = [];
    const nested: SimpleCommand[] = [];
    const make = (program: string, args: string[]): SimpleCommand => ({
      program,
      args,
      redirects: base.redirects,
      raw: base.raw,
      wrappers: [...wrappers],
      assignments,
      pipeline: base.pipeline,
      stage: base.stage,
      depth: base.depth,
    });
    const script = (src: string, via: string): void => {
      nested.push(...this.parseLine(src, base.depth + 1, [...wrappers, via]));
    };

    let k = 0;
    for (let guard = 0; guard < 64; guard++) {
      while (k < words.length && ASSIGNMENT.test(words[k])) assignments.push(words[k++]);
      if (k >= words.length) return { main: make("", []), nested };
      const word = words[k];
      if (SKIPPED_KEYWORDS.has(word)) {
        k++;
        continue;
      }
      const name = normaliseProgram(word);
      const rest = (from: number) => words.slice(from);
      let next = -1;
      switch (name) {
        case "sudo":
          next = skipOptions(words, k + 1, SUDO_ARGS);
          break;
        case "doas":
          next = skipOptions(words, k + 1, DOAS_ARGS);
          break;
        case "pkexec":
          next = skipOptions(words, k + 1, new Set(["--user"]));
          break;
        case "env": {
          const args = rest(k + 1);
          for (let a = 0; a < args.length; a++) {
            if (args[a] === "-S" || args[a] === "--split-string") {
              if (args[a + 1] !== undefined) script(args[a + 1], "env -S");
            } else if (args[a].startsWith("--split-string=")) script(args[a].slice(15), "env -S");
            else if (/^-[^-]*S./.test(args[a])) script(args[a].slice(args[a].indexOf("S") + 1), "env -S");
          }
          next = skipOptions(words, k + 1, ENV_ARGS, { stopAtAssignment: true });
          break;
        }
        case "nohup":
        case "builtin":
        case "setsid":
        case "busybox":
        case "unbuffer":
          next = k + 1;
          break;
        case "nice":
          next = skipOptions(words, k + 1, NICE_ARGS);
          break;
        case "time":
          next = skipOptions(words, k + 1, TIME_ARGS);
          break;
        case "ionice":
          next = skipOptions(words, k + 1, IONICE_ARGS);
          break;
        case "stdbuf":
          next = skipOptions(words, k + 1, STDBUF_ARGS);
          break;
        case "timeout": {
          const d = skipOptions(words, k + 1, TIMEOUT_ARGS);
          next = d < words.length ? d + 1 : d;
          break;
        }
        case "xargs": {
          const after = skipOptions(words, k + 1, XARGS_ARGS);
          if (after >= words.length) return { main: make("xargs", rest(k + 1)), nested };
          next = after;
          break;
        }
        case "command": {
          const after = skipOptions(words, k + 1, new Set());
          if (words.slice(k + 1, after).some((w) => /^-[a-zA-Z]*[vV]/.test(w))) return { main: make("command", rest(k + 1)), nested };
          next = after;
          break;
        }
        case "exec":
          next = skipOptions(words, k + 1, EXEC_ARGS);
          break;
        default:
          break;
      }
      if (next >= 0) {
        if (next >= words.length) return { main: make(name, rest(k + 1)), nested };
        wrappers.push(name);
        k = next;
        continue;
      }

      const args = rest(k + 1);
      const main = make(name, args);
      if (SHELLS.has(name)) {
        const src = shellScript(args);
        if (src !== undefined) script(src, `${name} -c`);
        else {
          // `bash <<EOF ... EOF` and `bash <<< "..."` feed the shell its script on stdin.
          for (const r of base.redirects) {
            if (r.heredoc !== undefined) script(r.heredoc, `${name} <<`);
            else if (r.op === "<<<") script(r.target, `${name} <<<`);
          }
        }
      } else if (name === "eval") {
        if (args.length > 0) script(args.join(" "), "eval");
      } else if (name === "watch") {
        // watch joins its arguments and runs them with `sh -c`.
        const from = skipOptions(args, 0, WATCH_ARGS);
        if (from < args.length) script(args.slice(from).join(" "), "watch");
      } else if (name === "su") {
        for (let a = 0; a < args.length; a++) {
          if ((args[a] === "-c" || args[a] === "--command") && args[a + 1] !== undefined) script(args[a + 1], "su -c");
          else if (args[a].startsWith("--command=")) script(args[a].slice(10), "su -c");
        }
      } else if (name === "find") {
        for (let a = 0; a < args.length; a++) {
          if (["-exec", "-execdir", "-ok", "-okdir"].includes(args[a])) {
            let e = a + 1;
            while (e < args.length && args[e] !== ";" && args[e] !== "+") e++;
            const inner = args.slice(a + 1, e);
            if (inner.length > 0) {
              const sub = this.fromWords(inner, { ...base, raw: inner.join(" "), redirects: [], depth: base.depth + 1, wrappers: [...wrappers, "find -exec"] });
              nested.push(sub.main, ...sub.nested);
            }
            a = e;
          }
        }
      }
      return { main, nested };
    }
    return { main: make(normaliseProgram(words[k] ?? ""), words.slice(k + 1)), nested };
  }
}

/** The script of `bash -c '...'` / `bash -lc '...'`, or undefined when the shell is not given one. */
export function shellScript(args: string[]): string | undefined {
  let hasC = false;
  let k = 0;
  while (k < args.length) {
    const w = args[k];
    if (w === "--" || w === "-") {
      k++;
      break;
    }
    if (!(w.startsWith("-") || w.startsWith("+")) || w.length < 2) break;
    if (SHELL_ARGS.has(w)) {
      k += 2;
      continue;
    }
    if (w.startsWith("--")) {
      if (w === "--command") hasC = true;
      k++;
      continue;
    }
    if (w.startsWith("-") && w.slice(1).includes("c")) hasC = true;
    k++;
  }
  return hasC && k < args.length ? args[k] : undefined;
}

/** Split a command line into simple commands, recursing into substitutions and wrapped scripts. */
export function parseShell(line: string): SimpleCommand[] {
  return new Parser().parseLine(line, 0, []);
}
