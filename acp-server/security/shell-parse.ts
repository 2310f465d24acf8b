// A small, dependency-free shell-line parser for screening commands before they run.
// It is not a full shell grammar: it splits a line into simple commands, unquotes words,
// records redirections and pipes, and looks inside the places where a second command can
// hide (command substitution, `bash -c '...'`, `eval`, `sudo`/`env`/`xargs` prefixes, ...).
// When in doubt it errs towards exposing more commands, never fewer, and it marks what it
// cannot know statically (computed words) instead of guessing.
//
// This file is the public entry and drives the parse; the work is split across
// shell-scan.ts / shell-lex.ts (tokenising), shell-words.ts (expansions) and
// shell-wrappers.ts (unwrapping prefixes).
import { segment, tokenize } from "./shell-lex";
import type { Redirect, SimpleCommand, Word } from "./shell-types";
import { fromWords, type Built } from "./shell-wrappers";
import { WordResolver, type KnownVars } from "./shell-words";
import { ASSIGNERS } from "./programs/tables";

export type { Redirect, SimpleCommand, Word } from "./shell-types";
export type { KnownVars } from "./shell-words";
export { normaliseProgram, shellScript, SHELLS } from "./shell-wrappers";

const MAX_DEPTH = 8;

class Parser {
  private nextPipeline = 0;
  /** Set when a script nests deeper than MAX_DEPTH: what lies below is not screened. */
  tooDeep = false;

  constructor(private readonly words: WordResolver) {}

  parseLine(src: string, depth: number, wrappers: string[]): SimpleCommand[] {
    if (depth > MAX_DEPTH) {
      this.tooDeep = true;
      return [];
    }
    const evaluated: string[] = [];
    const segs = segment(tokenize(src, evaluated));
    const built: { pre: SimpleCommand[]; b: Built }[] = [];
    let pipeline = this.nextPipeline++;
    let stage = 0;
    const parseScript = (sub: string, d: number, w: string[]): SimpleCommand[] => this.parseLine(sub, d, w);
    for (const seg of segs) {
      const pre: SimpleCommand[] = [];
      for (const w of seg.words) for (const sub of w.subs) pre.push(...this.parseLine(sub, depth + 1, []));
      for (const r of seg.redirs) for (const sub of r.target?.subs ?? []) pre.push(...this.parseLine(sub, depth + 1, []));
      const redirects: Redirect[] = seg.redirs.map(({ tok, target }) => {
        const resolved: Word | undefined = target ? this.words.resolve(target)[0] : undefined;
        const red: Redirect = { op: tok.op, target: resolved?.text ?? "" };
        if (tok.fd !== undefined) red.fd = tok.fd;
        if (tok.heredoc !== undefined) red.heredoc = tok.heredoc;
        if (resolved && resolved.dynamic.length > 0) red.dynamic = resolved.dynamic;
        return red;
      });
      const words = seg.words.flatMap((w) => this.words.resolve(w));
      const b = fromWords(words, { redirects, raw: src.slice(seg.start, seg.end), pipeline, stage, depth, wrappers: [...wrappers] }, parseScript);
      if (b.main.program === "" || ASSIGNERS.has(b.main.program)) {
        this.words.record(b.main.program === "" ? words : b.main.argWords);
      }
      built.push({ pre, b });
      if (seg.sepAfter === "|") stage++;
      else {
        pipeline = this.nextPipeline++;
        stage = 0;
      }
    }
    const out: SimpleCommand[] = [];
    if (evaluated.length > 0) out.push(unresolvedMarker(evaluated, src, depth));
    for (const [k, { pre, b }] of built.entries()) {
      const next = built[k + 1];
      if (next && next.b.main.pipeline === b.main.pipeline) b.main.pipedTo = next.b.main.program;
      out.push(...pre, b.main, ...b.nested);
    }
    return out;
  }
}

/**
 * Split a command line into simple commands, recursing into substitutions and wrapped
 * scripts. With `known`, `$HOME`, `$HERMES_HOME`, `$USER` and `~` are replaced by their values.
 */
export function parseShell(line: string, known?: KnownVars): SimpleCommand[] {
  const parser = new Parser(new WordResolver(known));
  const commands = parser.parseLine(line, 0, []);
  if (parser.tooDeep) commands.push(unresolvedMarker(["scripts nested too deeply to follow"], line, 0));
  return commands;
}

/** A command-less entry that only carries why part of the line cannot be followed. */
function unresolvedMarker(reasons: string[], raw: string, depth: number): SimpleCommand {
  return { program: "", args: [], argWords: [], unresolved: [...new Set(reasons)], redirects: [], raw, wrappers: [], assignments: [], pipeline: -1, stage: 0, depth };
}
