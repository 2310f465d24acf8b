// The shapes shell-parse.ts hands back: one SimpleCommand per command found in a line,
// with its redirections. Kept apart so the lexer, the wrapper unwrapper and the parser
// can share them without importing each other.

/** One shell word after quote removal and the expansions screening can do statically. */
export interface Word {
  /** The text, with known variables (`$HOME`, `$HERMES_HOME`, `$USER`, `~`) replaced by their values. */
  text: string;
  /**
   * Why the word's final value cannot be known before it runs (`$X`, `$(...)`, a glob, a brace
   * expansion, `~other`); empty when the text is exactly what the program receives.
   */
  dynamic: string[];
  /** Written with escapes or partial quoting (see WordTok.escaped): unresolved as a command name. */
  escaped?: boolean;
}

export interface Redirect {
  /** The operator: ">", ">>", ">|", "&>", "&>>", ">&", "<", "<<", "<<-", "<<<", "<>", "<&". */
  op: string;
  /** The file descriptor written before the operator ("2" in `2>err.log`), if any. */
  fd?: string;
  /** The unquoted target word (a file, a descriptor number, or a here-document delimiter). */
  target: string;
  /** The body of a here-document (`<<EOF ... EOF`). */
  heredoc?: string;
  /** Set when the target's value is computed at run time. */
  dynamic?: string[];
}

export interface SimpleCommand {
  /** Normalised program name: no leading backslash, basename of a path; "" when only redirections/assignments. */
  program: string;
  /** Unquoted argument words after the program. */
  args: string[];
  /** The argument words with what is known about each (parallel to `args`). */
  argWords: Word[];
  /**
   * Why this command cannot be resolved statically: a computed command name, code fed to a
   * shell or interpreter at run time, arguments appended by xargs, ... Empty when resolved.
   */
  unresolved: string[];
  redirects: Redirect[];
  /** The program of the next command in the same pipe (`curl x | sh` → "sh" on the curl command). */
  pipedTo?: string;
  /** The source text this command came from. */
  raw: string;
  /** Prefixes that were stripped to reach the program, outermost first: "sudo", "env", "xargs", "bash -c", "eval", ... */
  wrappers: string[];
  /** The folder a wrapper runs the program in (`env -C DIR`, `sudo -D DIR`, `nsenter -w DIR`). */
  chdir?: Word;
  /** Leading `NAME=value` assignments (including those after `env`/`sudo`). */
  assignments: string[];
  /** Identifies the pipeline this command belongs to (unique within one parse). */
  pipeline: number;
  /** Position inside its pipeline, 0 for the first command. */
  stage: number;
  /** Nesting depth: 0 for the typed line, higher inside substitutions and `-c` scripts. */
  depth: number;
}
