// Shells, shell builtins and the programs a script is handed to. Options that take a value
// matter: `bash -o pipefail` and `bash -eo pipefail -c '…'` must not be read as a script file
// named `pipefail` (that let `echo "rm -rf ~" | bash -o pipefail` and the `-c` script pass).
import type { ProgramEntry } from "./program-entry";

/** Long options that take no value, shared by the sh family (an unknown one makes the parse uncertain). */
const COMMON_FLAGS = ["--norc", "--noprofile", "--login", "--posix", "--restricted", "--verbose", "--version", "--help", "--noediting", "--debugger", "--dump-strings", "--dump-po-strings", "--pretty-print", "--wordexp", "--no-rcs", "--no-globalrcs", "--interactive", "--privileged"];
/** `-o OPTION`, `+o OPTION` (set), `-O`/`+O SHOPT` (bash): the letter's value is the next word. */
const SET_OPTIONS = ["-o", "+o", "-O", "+O"];
const SHELL = { traits: ["shell", "o-is-not-output", "code-from-descriptor"], flagOptions: COMMON_FLAGS, valueLetters: "oO" } as const;

export const SHELL_ENTRIES: ProgramEntry[] = [
  { names: ["bash", "rbash"], ...SHELL, valueOptions: [...SET_OPTIONS, "--rcfile", "--init-file"] },
  { names: ["sh", "dash", "ash", "busybox-sh", "posh", "yash"], ...SHELL, valueOptions: SET_OPTIONS },
  { names: ["ksh", "ksh93", "mksh"], ...SHELL, valueOptions: SET_OPTIONS },
  { names: ["zsh"], ...SHELL, valueOptions: [...SET_OPTIONS, "--emulate"] },
  { names: ["fish"], ...SHELL, valueOptions: SET_OPTIONS },
  { names: ["csh", "tcsh"], ...SHELL, valueOptions: SET_OPTIONS },
  // Builtins that set variables, options or the folder.
  { names: ["export", "declare"], traits: ["declarer", "assigns", "args-are-data", "no-content-read"], readOnly: true },
  { names: ["local"], traits: ["declarer", "assigns", "args-are-data", "no-content-read", "no-file-operands"], readOnly: true },
  { names: ["typeset", "readonly"], traits: ["declarer", "assigns", "args-are-data"], readOnly: true },
  { names: ["unset"], traits: ["declarer", "args-are-data", "no-content-read", "no-file-operands"], readOnly: true },
  { names: ["set"], traits: ["declarer", "args-are-data", "o-is-not-output", "prints-environment"], readOnly: true },
  { names: ["read", "shift"], traits: ["declarer", "args-are-data"] },
  { names: ["let"], traits: ["declarer", "args-are-data"] },
  { names: ["alias", "trap"], traits: ["declarer"] },
  { names: ["cd", "pushd"], traits: ["declarer", "no-content-read"], readOnly: true },
  { names: ["popd"], traits: ["declarer"], readOnly: true },
  { names: ["shopt", "stty"], traits: ["o-is-not-output"] },
  { names: ["exit"], traits: ["args-are-data", "no-content-read", "no-file-operands"], readOnly: true },
  { names: ["return", "getopts", "hash"], traits: ["args-are-data"] },
  { names: ["wait"], traits: ["args-are-data", "no-file-operands"], readOnly: true },
  { names: ["true", "false", ":"], traits: ["args-are-data", "no-file-operands"], readOnly: true },
  { names: ["test", "[", "[["], traits: ["args-are-data", "no-content-read"], readOnly: true },
  { names: ["source", "."], traits: ["code-from-descriptor", "stdin-shell"], rule: "run-script-file" },
  { names: ["eval"], traits: ["hides-effects"] },
];
