// Low-level scanners for the shell lexer (shell-lex.ts): find the end of quoted text,
// backticks, `$(...)` and `${...}`, decode `$'...'` escapes, and read redirection operators.
// Each works on the raw source and an index, and tolerates unbalanced input by running to
// the end of the line rather than giving up.

/** Index just past the closing backtick; `i` is just after the opening one. */
export function skipBacktick(src: string, i: number): number {
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
export function findClose(src: string, i: number): number {
  return findMatching(src, i, "(", ")");
}

/** Index of the `}` closing a `${`; `i` is just after the `{` (the last index if unbalanced). */
export function findBrace(src: string, i: number): number {
  const at = findMatching(src, i, "{", "}");
  return at < 0 ? src.length - 1 : at;
}

/**
 * Index of the `close` that balances an already-open `open` (`i` is just after it), or -1.
 * Quotes, backticks, escapes and nested `$(…)` are skipped, so a bracket inside them never counts.
 */
function findMatching(src: string, i: number, open: string, close: string): number {
  let depth = 1;
  // `$(case x in x) cmd;; esac)`: inside a case command a pattern's `)` closes nothing.
  let cases = 0;
  const start = i;
  while (i < src.length) {
    const c = src[i];
    if (open === "(" && /[a-z]/.test(c ?? "") && !/[\w$-]/.test(src[i - 1] ?? "")) {
      const word = /^[a-z]+/.exec(src.slice(i, i + 5))?.[0];
      const commandPosition = /(^|[;&|(\n{]|\b(then|do|else|elif|!))\s*$/.test(src.slice(start, i));
      if (word === "case" && commandPosition) cases++;
      else if (word === "esac" && cases > 0) cases--;
      if (word) {
        i += word.length;
        continue;
      }
    }
    if (open === "(" && c === ")" && cases > 0 && depth === 1) {
      i++;
      continue;
    }
    if (c === "\\") {
      i += 2;
      continue;
    }
    if (c === "$" && src[i + 1] === "(") {
      const end = findClose(src, i + 2);
      i = end < 0 ? src.length : end + 1;
      continue;
    }
    if (c === "`") {
      i = skipBacktick(src, i + 1);
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
    if (c === open) depth++;
    else if (c === close) {
      depth--;
      if (depth === 0) return i;
    }
    i++;
  }
  return -1;
}

function unescapeBacktick(inner: string): string {
  return inner.replace(/\\([`\\$])/g, "$1");
}

export function decodeAnsiC(body: string): string {
  // bash also decodes `\uHHHH`, `\UHHHHHHHH` (so `$'\u0072\u006d'` is `rm`) and `\cX` control characters.
  return body.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|c.|[0-7]{1,3}|.)/g, (_m, e: string) => {
    if (e[0] === "x") return String.fromCharCode(parseInt(e.slice(1), 16));
    if ((e[0] === "u" || e[0] === "U") && e.length > 1) {
      const code = parseInt(e.slice(1), 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : "\uFFFD";
    }
    if (e[0] === "c" && e.length === 2) return String.fromCharCode(e.charCodeAt(1) & 0x1f);
    if (/^[0-7]+$/.test(e)) return String.fromCharCode(parseInt(e, 8));
    const map: Record<string, string> = { n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", e: "\x1b", E: "\x1b", f: "\f", v: "\v" };
    return map[e] ?? e;
  });
}

/**
 * If a command substitution — `$(...)` or a backtick pair — starts at `i`, push the command
 * inside it onto `subs` and return the index just past it; otherwise return -1. Used both
 * inside and outside double quotes, since the inner command runs either way. `$((...))` is
 * arithmetic in bash, but it is recorded too: array subscripts inside it run substitutions,
 * and other shells read `$((cmd) )` as a command (screening a formula as a command is harmless).
 */
export function readSubstitution(src: string, i: number, subs: string[]): number {
  if (src[i] === "$" && src[i + 1] === "(") {
    const close = findClose(src, i + 2);
    subs.push(src.slice(i + 2, close < 0 ? src.length : close));
    return close < 0 ? src.length : close + 1;
  }
  if (src[i] === "`") {
    const end = skipBacktick(src, i + 1);
    subs.push(unescapeBacktick(src.slice(i + 1, end - 1)));
    return end;
  }
  return -1;
}

export function readRedirOp(src: string, i: number): string {
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

/**
 * Every `$(...)`/backtick command found anywhere inside the body of a `${...}` expansion,
 * including inside quotes there (bash runs them in defaults, patterns and subscripts alike).
 * Fails towards exposing more: a quoted `'$(x)'` inside `${...}` is screened too.
 */
export function nestedSubstitutions(body: string): string[] {
  const subs: string[] = [];
  let i = 0;
  while (i < body.length) {
    if (body[i] === "\\") {
      i += 2;
      continue;
    }
    const end = readSubstitution(body, i, subs);
    i = end >= 0 ? end : i + 1;
  }
  return subs;
}
