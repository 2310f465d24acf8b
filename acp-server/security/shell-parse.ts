// A small, dependency-free shell-line parser for screening commands before they run.
// It is not a full shell grammar: it splits a line into simple commands, unquotes words,
// records redirections and pipes, and looks inside the places where a second command can
// hide (command substitution, `bash -c '...'`, `eval`, `sudo`/`env`/`xargs` prefixes, ...).
// When in doubt it errs towards exposing more commands, never fewer.
//
// This file is the public entry and drives the parse; the work is split across
// shell-scan.ts / shell-lex.ts (tokenising) and shell-wrappers.ts (unwrapping prefixes).
import { segment, tokenize } from "./shell-lex";
import type { Redirect, SimpleCommand } from "./shell-types";
import { fromWords, type Built } from "./shell-wrappers";

export type { Redirect, SimpleCommand } from "./shell-types";
export { normaliseProgram, shellScript } from "./shell-wrappers";

const MAX_DEPTH = 8;

class Parser {
  private nextPipeline = 0;

  parseLine(src: string, depth: number, wrappers: string[]): SimpleCommand[] {
    if (depth > MAX_DEPTH) return [];
    const segs = segment(tokenize(src));
    const built: { pre: SimpleCommand[]; b: Built }[] = [];
    let pipeline = this.nextPipeline++;
    let stage = 0;
    const parseScript = (sub: string, d: number, w: string[]): SimpleCommand[] => this.parseLine(sub, d, w);
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
      const b = fromWords(
        seg.words.map((w) => w.value),
        { redirects, raw: src.slice(seg.start, seg.end), pipeline, stage, depth, wrappers: [...wrappers] },
        parseScript,
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
}

/** Split a command line into simple commands, recursing into substitutions and wrapped scripts. */
export function parseShell(line: string): SimpleCommand[] {
  return new Parser().parseLine(line, 0, []);
}
