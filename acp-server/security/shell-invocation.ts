// How a shell was invoked: whether it runs a `-c` string, reads its script from stdin, or runs a
// script file. Options that take an argument are skipped with it (`-o pipefail`, `+O extglob`,
// `--init-file FILE`, `--rcfile FILE`), and `+x` is an option, not a script: reading them as the
// script file let `echo "rm -rf ~" | bash -o pipefail` pass as harmless. The first word that is
// not an option is the script file, everything after it the script's arguments. A long option
// this list does not know may take a value, so what follows it cannot be told apart: the shell
// then counts as reading stdin (fails closed: the piped text is screened as its script).

import { SHELL_FLAG_OPTIONS, SHELL_VALUE_LETTERS, SHELL_VALUE_OPTIONS } from "./programs/tables";

/** Letters of a `-x`/`+x` cluster whose value is the next word (`-o pipefail`, `-O extglob`), from the registry's shells. */
const LETTER_TAKES_VALUE = new RegExp(`[${SHELL_VALUE_LETTERS}]`, "g");

export interface ShellInvocation {
  /** `-c` (or `--command`): runs its first operand as the script. */
  command: boolean;
  /** `-s`: reads the script from stdin even with operands. */
  stdinFlag: boolean;
  /** The words after the options: the script file (or the `-c` string) and its arguments. */
  operands: string[];
  /** A long option of unknown arity came first: whether a script file follows cannot be told. */
  uncertain: boolean;
  /** `--command=SCRIPT` (fish): the script glued to the option, and the option's index in args. */
  gluedCommand?: { at: number; script: string };
}

export function shellInvocation(args: readonly string[]): ShellInvocation {
  let command = false;
  let stdinFlag = false;
  let uncertain = false;
  let gluedCommand: ShellInvocation["gluedCommand"];
  const done = (operands: string[]): ShellInvocation => ({ command, stdinFlag, operands, uncertain, ...(gluedCommand ? { gluedCommand } : {}) });
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!; // k < args.length
    if (a === "--" || a === "-") return done(args.slice(a === "-" ? k : k + 1));
    if (a.startsWith("--")) {
      const name = a.includes("=") ? a.slice(0, a.indexOf("=")) : a;
      if (name === "--command") command = true;
      if (name === "--command" && a.includes("=")) gluedCommand = { at: k, script: a.slice(a.indexOf("=") + 1) };
      else if (SHELL_VALUE_OPTIONS.has(name)) k += a.includes("=") ? 0 : 1;
      else if (!SHELL_FLAG_OPTIONS.has(name) && !a.includes("=")) uncertain = true;
      continue;
    }
    if (/^[-+][A-Za-z]+$/.test(a)) {
      if (a.startsWith("-") && a.includes("c")) command = true;
      if (a.startsWith("-") && a.includes("s")) stdinFlag = true;
      k += (a.slice(1).match(LETTER_TAKES_VALUE) ?? []).length;
      continue;
    }
    return done(args.slice(k));
  }
  return done([]);
}

/**
 * The shell reads its script from stdin: `bash`, `bash -s`, `bash -o pipefail`, `sh -`, and
 * (fail closed) `bash --unknown-option word`; never `bash -c …` or `bash file`.
 */
export function shellReadsStdin(args: readonly string[]): boolean {
  const { command, stdinFlag, operands, uncertain } = shellInvocation(args);
  if (command) return false;
  return stdinFlag || uncertain || operands.length === 0 || operands[0] === "-";
}
