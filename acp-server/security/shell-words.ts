// Turns a lexed word into what the program will receive, as far as that can be known before
// it runs: known variables ($HOME, $HERMES_HOME, $USER, ~, ~me) are replaced by their values,
// brace expansions are expanded, and everything else the shell computes at run time ($X,
// $(...), globs, ~other) is recorded on the word as "dynamic", so screening can treat it as
// unresolved instead of guessing. Variables assigned earlier in the same line are substituted
// too (so `X=~; rm -rf $X` is seen for what it is) but still count as dynamic: a loop, a
// subshell or a function may have changed them.
import type { WordTok } from "./shell-lex";
import type { Word } from "./shell-types";

/** The values screening knows for sure. */
export interface KnownVars {
  home: string;
  user: string;
  hermesHome: string;
}

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?\+?=/;
const MAX_BRACE_WORDS = 64;

/** Markers of dynamic content that arguments tolerate (the rules see the pattern itself). */
export const PATTERN_MARKERS = new Set(["glob", "brace"]);

export class WordResolver {
  /** Variables assigned literally earlier in the line (values are substituted but never trusted). */
  readonly lineVars = new Map<string, string>();

  constructor(private readonly known?: KnownVars) {}

  private knownValue(name: string): string | undefined {
    if (!this.known) return name === "HOME" || name === "HERMES_HOME" || name === "PWD" ? `$${name}` : undefined;
    switch (name) {
      case "HOME":
        return this.known.home;
      case "HERMES_HOME":
        return this.known.hermesHome;
      case "USER":
      case "LOGNAME":
        return this.known.user;
      case "PWD":
        return "$PWD"; // resolvePath replaces it with the directory the command runs in
      default:
        return undefined;
    }
  }

  /** One lexed word → the words the program receives (several after brace expansion or splitting). */
  resolve(tok: WordTok): Word[] {
    let text = tok.value;
    const dynamic: string[] = [];
    let splitValue: string | undefined;
    for (const exp of [...tok.expansions].reverse()) {
      let replacement: string | undefined;
      if (exp.name !== undefined) {
        replacement = this.knownValue(exp.name);
        if (replacement === undefined) {
          dynamic.push(`$${exp.name}`);
          const assigned = this.lineVars.get(exp.name);
          if (assigned !== undefined) {
            replacement = assigned;
            if (!exp.quoted && exp.at === 0 && exp.len === tok.value.length) splitValue = assigned;
          }
        }
      } else if (exp.sub !== undefined && /^\s*pwd\s*$/.test(exp.sub)) {
        replacement = "$PWD";
      } else {
        dynamic.push(exp.sub !== undefined ? "$(...)" : tok.value.slice(exp.at, exp.at + exp.len));
      }
      if (replacement !== undefined) text = text.slice(0, exp.at) + replacement + text.slice(exp.at + exp.len);
    }
    if (tok.tilde) text = this.expandTilde(text, dynamic);
    const assignedTilde = ASSIGNMENT.exec(text);
    if (assignedTilde && text[assignedTilde[0].length] === "~") {
      const head = assignedTilde[0];
      text = head + this.expandTilde(text.slice(head.length), dynamic);
    }
    if (tok.glob) dynamic.push("glob");
    dynamic.reverse();
    const mark = (w: Word): Word => (tok.escaped ? { ...w, escaped: true } : w);
    if (splitValue !== undefined && /\s/.test(splitValue.trim())) {
      return splitValue.trim().split(/\s+/).map((part) => mark({ text: part, dynamic: [...dynamic] }));
    }
    if (tok.brace) {
      const expanded = expandBraces(text);
      return expanded.map((part) => mark({ text: part, dynamic: [...dynamic, "brace"] }));
    }
    return [mark({ text, dynamic })];
  }

  private expandTilde(text: string, dynamic: string[]): string {
    const m = /^~([^/]*)/.exec(text);
    if (!m) return text;
    const user = m[1];
    const rest = text.slice(m[0].length);
    const home = this.known?.home ?? "~";
    if (user === "") return this.known ? home + rest : text;
    if (user === "+") return "$PWD" + rest;
    if (this.known && user === this.known.user) return home + rest;
    if (user === "root") return "/root" + rest;
    dynamic.push(`~${user}`);
    return text;
  }

  /** Records `NAME=value` words of an assignment-only command or `export`/`declare`/`local`. */
  record(words: Word[]): void {
    for (const word of words) {
      const [whole, name, subscript] = ASSIGNMENT.exec(word.text) ?? [];
      // Not recorded means not known: a later $NAME stays computed at run time.
      if (whole === undefined || name === undefined || subscript !== undefined) continue;
      if (word.dynamic.length > 0 || word.text.includes("+=")) this.lineVars.delete(name);
      else this.lineVars.set(name, word.text.slice(whole.length));
    }
  }
}

/** Bash brace expansion of `{a,b}` and `{1..3}` groups (innermost first), capped in size. */
export function expandBraces(text: string): string[] {
  const out: string[] = [];
  const pending = [text];
  while (pending.length > 0 && out.length + pending.length <= MAX_BRACE_WORDS) {
    const current = pending.shift() as string;
    const m = /(^|[^$])\{([^{}]*)\}/.exec(current);
    const [, before = "", body = ""] = m ?? [];
    const group = m ? alternatives(body) : undefined;
    if (!m || !group) {
      out.push(current);
      continue;
    }
    const open = m.index + before.length;
    const close = open + body.length + 2;
    for (const alt of group) pending.push(current.slice(0, open) + alt + current.slice(close));
  }
  return [...out, ...pending];
}

function alternatives(body: string): string[] | undefined {
  if (body.includes(",")) return body.split(",");
  const range = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])$/.exec(body);
  const [, first, last] = range ?? [];
  if (first === undefined || last === undefined) return undefined;
  const numeric = /\d/.test(first);
  const from = numeric ? Number(first) : first.charCodeAt(0);
  const to = numeric ? Number(last) : last.charCodeAt(0);
  const step = from <= to ? 1 : -1;
  const values: string[] = [];
  for (let v = from; values.length < MAX_BRACE_WORDS; v += step) {
    values.push(numeric ? String(v) : String.fromCharCode(v));
    if (v === to) break;
  }
  return values;
}
