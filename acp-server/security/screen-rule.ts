// What every command-screen rule family works with: the Screen a rule reports findings to
// (and asks to resolve paths or check writes and deletes), plus small argument helpers
// shared by the rules.
import type { State } from "./screen-paths";

export interface Finding {
  level: "hardline" | "dangerous";
  key: string;
  reason: string;
  /** The command cannot be resolved statically: it runs only where a sandbox contains it. */
  unresolved?: boolean;
}

export interface Screen {
  readonly st: State;
  /** Record a finding (duplicates of the same key and reason are dropped). */
  add(level: Finding["level"], key: string, reason: string): void;
  /** The absolute path a word names, from the current directory. */
  abs(word: string): string;
  /** A path as shown to the user (`~/...` inside the home directory). */
  show(abs: string): string;
  /** A write into `word`: hardline for a raw disk, dangerous for a sensitive file. */
  write(word: string, how: string): void;
  /** A delete (or move away) of `word`: dangerous for a sensitive file. */
  deleted(word: string, how: string, verb?: string): void;
  /** Record that the command cannot be resolved statically (always at least "dangerous"). */
  unresolved(key: string, reason: string): void;
  /** Screen literal text that will run as a shell script (a pager setting, echo piped to sh). */
  nested(script: string, via: string): void;
  /** `file` is run as code by `how`: flags a file downloaded earlier in the line. */
  executes(file: string, how: string): void;
}

export function shortFlags(args: string[]): { short: string; long: string[]; operands: string[] } {
  let short = "";
  const long: string[] = [];
  const operands: string[] = [];
  let ended = false;
  for (const a of args) {
    if (ended || a === "-" || !a.startsWith("-")) operands.push(a);
    else if (a === "--") ended = true;
    else if (a.startsWith("--")) long.push(a);
    else short += a.slice(1);
  }
  return { short, long, operands };
}

export function firstSubcommand(args: string[], withArg: ReadonlySet<string>): { sub: string | undefined; rest: string[] } {
  let k = 0;
  for (let a = args[k]; a?.startsWith("-"); a = args[k]) k += withArg.has(a) ? 2 : 1;
  return { sub: args[k], rest: args.slice(k + 1) };
}
