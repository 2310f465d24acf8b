// The tables the command screen, plan mode and the shell parser read, each computed from the
// program registry. Adding a program is one entry in programs/entries-*.ts; nothing here names one.
import type { Effect, ProgramEntry, Trait } from "./program-entry";
import { PROGRAM_ENTRIES, programEntry, programsWith, type ProgramSet } from "./registry";

const withTrait = (trait: Trait): ProgramSet => programsWith((entry) => entry.traits?.includes(trait) ?? false);

/** sh, bash, zsh, dash, … */
export const SHELLS = withTrait("shell");
/** python, node, perl, ruby, …: they run a script file, inline code, or a script read on stdin. */
export const INTERPRETERS = withTrait("interpreter");
export const AWKS = withTrait("awk");
/** Programs that fetch a URL (and may write what they fetched to a file). */
export const DOWNLOADERS = withTrait("downloader");
/** Programs that send their stdin to the network when told to (`curl -d @-`). */
export const SENDS_STDIN = withTrait("sends-stdin");
/** Programs that print the whole environment (`env`, `printenv`, `set`). */
export const PRINTS_ENVIRONMENT = withTrait("prints-environment");
/** Programs whose operands are never files they read (`echo`, `seq`, `basename`). */
export const NO_FILE_OPERANDS = withTrait("no-file-operands");
/** Programs that delete the files they are given, whatever runs them (`xargs rm`, `find -exec rm`). */
export const DELETES_OPERANDS = withTrait("deletes-operands");
/** Shell builtins that set variables, options or the folder: their computed arguments are not a command's. */
export const DECLARERS = withTrait("declarer");
/** Builtins whose arguments are NAME=value assignments (`export PAGER=…`). */
export const ASSIGNERS = withTrait("assigns");
/**
 * Programs whose arguments are data: whatever value an argument computed at run time takes,
 * they only print, compare or read. A `$f` handed to them is not a reason to ask.
 */
export const ARGS_ARE_DATA = withTrait("args-are-data");
/** Programs that neither read file contents nor write (for the credential-read rule). */
export const NO_CONTENT_READ = withTrait("no-content-read");
/** Programs whose `-o` is not an output file. */
export const O_IS_NOT_OUTPUT = withTrait("o-is-not-output");
/** Runtimes and compilers plan mode allows only to print their version. */
export const VERSION_ONLY = withTrait("version-only");
/** Editors and pagers that run commands when told to (`vim -c '!…'`). */
export const EDITORS = withTrait("editor");
export const VIMS = withTrait("vim");
export const SQL_CLIENTS = withTrait("sql-client");
export const MONGO_CLIENTS = withTrait("mongo-client");
/** `npx`, `pnpx`, `bunx`: run a package's binary, fetching the package when it is not installed. */
export const NODE_RUNNERS = withTrait("node-runner");
export const NODE_PACKAGE_MANAGERS = withTrait("node-package-manager");
/** Tools so common that `npx NAME` is the tool everyone means. */
export const WELL_KNOWN_BINS = withTrait("well-known-bin");
export const PIPS = withTrait("pip");
/** Readers plan mode still counts as read-only when xargs hands them their files. */
export const XARGS_READERS = withTrait("xargs-reader");
/** Programs that may take their code from a descriptor (`make -f /dev/stdin`, `source /dev/fd/3`). */
export const CODE_FROM_DESCRIPTOR = withTrait("code-from-descriptor");
/** Wrappers after which a read-only command is no longer read-only (root, remote, repeated, hidden). */
export const HIDES_EFFECTS = withTrait("hides-effects");
/** Programs that run a script read on stdin as shell code (`source /dev/stdin`, `sudo -s`, `at`). */
export const STDIN_SHELLS = withTrait("stdin-shell");
/** netcat and its builds: `-e PROG` hands a program to the peer, `-U` reaches a unix socket. */
export const NETCATS = withTrait("netcat");
/** Programs that run commands built from input read at run time (`parallel`). */
export const RUNS_TEMPLATES = withTrait("runs-templates");

/** The union of one option list over entries: what a parser that does not know which shell ran must assume. */
function unionOf(entries: readonly ProgramEntry[], pick: (entry: ProgramEntry) => readonly string[] | undefined): ReadonlySet<string> {
  return new Set(entries.flatMap((entry) => pick(entry) ?? []));
}
const SHELL_ENTRIES = PROGRAM_ENTRIES.filter((entry) => entry.traits?.includes("shell"));
/** Any shell's options that take the next word as their value (`-o pipefail`, `--rcfile FILE`). */
export const SHELL_VALUE_OPTIONS = unionOf(SHELL_ENTRIES, (entry) => entry.valueOptions);
/** Any shell's long options known to take no value. */
export const SHELL_FLAG_OPTIONS = unionOf(SHELL_ENTRIES, (entry) => entry.flagOptions);
/** Letters of a shell's short cluster whose value is the next word (`bash -eo pipefail`). */
export const SHELL_VALUE_LETTERS = [...new Set(SHELL_ENTRIES.flatMap((entry) => [...(entry.valueLetters ?? "")]))].join("");

const NO_OPTIONS: ReadonlySet<string> = new Set();
const VALUE_OPTIONS = new Map(PROGRAM_ENTRIES.flatMap((entry) => entry.names.map((name) => [name, new Set(entry.valueOptions ?? [])] as const)));

/** The program's options that take the next word as their value (empty when the registry knows none). */
export function valueOptionsOf(name: string): ReadonlySet<string> {
  return VALUE_OPTIONS.get(name) ?? (programEntry(name) ? new Set(programEntry(name)?.valueOptions ?? []) : NO_OPTIONS);
}

/** Options of one subcommand that take a value (`docker exec -u USER`). */
export function subcommandValueOptions(name: string, sub: string): ReadonlySet<string> {
  return new Set(programEntry(name)?.subcommandOptions?.[sub] ?? []);
}

/** The subcommands the registry marks as having an effect (`git` → status, log, … for "read"). */
export function subcommandsWith(name: string, effect: Effect): ReadonlySet<string> {
  const subs = programEntry(name)?.subcommands ?? {};
  return new Set(Object.keys(subs).filter((sub) => subs[sub]?.effects.includes(effect)));
}
