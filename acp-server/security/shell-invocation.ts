// How a shell was invoked: whether it runs a `-c` string, reads its script from stdin, or runs a
// script file. Options that take an argument are skipped with it (`-o pipefail`, `+O extglob`,
// `--init-file FILE`, `--rcfile FILE`), and `+x` is an option, not a script: reading them as the
// script file let `echo "rm -rf ~" | bash -o pipefail` pass as harmless. What is not a known
// option is the script file, and everything after it the script's arguments.

/** Options whose next word is their value, in sh, bash, zsh, dash, ksh and friends. */
const TAKES_VALUE = new Set(["--init-file", "--rcfile", "--emulate"]);
/** Letters of a `-x`/`+x` cluster whose value is the next word (`-o pipefail`, `-O extglob`). */
const LETTER_TAKES_VALUE = /[oO]/g;

export interface ShellInvocation {
  /** `-c` (or `--command`): runs its first operand as the script. */
  command: boolean;
  /** `-s`: reads the script from stdin even with operands. */
  stdinFlag: boolean;
  /** The words after the options: the script file (or the `-c` string) and its arguments. */
  operands: string[];
}

export function shellInvocation(args: readonly string[]): ShellInvocation {
  let command = false;
  let stdinFlag = false;
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!; // k < args.length
    if (a === "--" || a === "-") return { command, stdinFlag, operands: args.slice(a === "-" ? k : k + 1) };
    if (a.startsWith("--")) {
      const name = a.includes("=") ? a.slice(0, a.indexOf("=")) : a;
      if (name === "--command") command = true;
      if (TAKES_VALUE.has(name) && !a.includes("=")) k++;
      continue;
    }
    if (/^[-+][A-Za-z]+$/.test(a)) {
      if (a.startsWith("-") && a.includes("c")) command = true;
      if (a.startsWith("-") && a.includes("s")) stdinFlag = true;
      k += (a.slice(1).match(LETTER_TAKES_VALUE) ?? []).length;
      continue;
    }
    return { command, stdinFlag, operands: args.slice(k) };
  }
  return { command, stdinFlag, operands: [] };
}

/** The shell reads its script from stdin: `bash`, `bash -s`, `bash -o pipefail`, `sh -`, never `bash -c …` or `bash file`. */
export function shellReadsStdin(args: readonly string[]): boolean {
  const { command, stdinFlag, operands } = shellInvocation(args);
  if (command) return false;
  return stdinFlag || operands.length === 0 || operands[0] === "-";
}
