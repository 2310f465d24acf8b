// The shape of one program's entry in the registry (programs/registry.ts): everything the
// command screen, plan mode and the shell parser know about a program, in one place. Each
// field is optional; a program the registry does not name gets no trust at all (not
// read-only, not data-only, not a known wrapper), so forgetting a field fails closed.

/** What a program (or one of its subcommands) does with the machine. */
export type Effect = "read" | "write" | "delete" | "network" | "runs-code" | "power";

/**
 * Facts with no argument. Each names a table the screen derives from the registry
 * (programs/tables.ts), where the meaning of each is written next to the table.
 */
export type Trait =
  | "shell" | "interpreter" | "awk" | "downloader" | "deletes-operands" | "declarer" | "assigns" | "args-are-data"
  | "no-content-read" | "version-only" | "editor" | "vim" | "sql-client" | "mongo-client" | "node-runner"
  | "node-package-manager" | "well-known-bin" | "xargs-reader" | "o-is-not-output" | "code-from-descriptor"
  | "hides-effects" | "prints-environment" | "sends-stdin" | "stdin-shell" | "pip" | "runs-templates" | "netcat"
  /** Its operands are never files it reads (text, numbers, names): the no-sandbox allowlist lets it name any path. */
  | "no-file-operands";

/** The rule of screen-one-command.ts that knows this program's arguments. */
export type ScreenRule =
  | "delete-files" | "delete-trees" | "trash-subcommand" | "overwrite-files" | "delete-entries" | "find-delete" | "format" | "raw-copy" | "signal-pids" | "kill-by-name"
  | "power" | "version-control" | "permissions" | "copy-stdin" | "copy" | "stream-edit" | "resize-or-create" | "download-output" | "redis" | "scheduler"
  | "container" | "run-script-file" | "disk-discard" | "erase-subcommand" | "signature-wipe" | "partition" | "disk-settings" | "encrypted-disk" | "disk-surface-test" | "raid-metadata"
  | "storage-destroy" | "firmware" | "kernel";

/** The check of screen-run-options.ts for options that make the program run a command. */
export type RunCheck = "git-transport" | "npm-scripts" | "make-shell" | "tar-checkpoint" | "rsync-shell" | "ssh-options" | "sqlite-dot-commands";

/** When plan mode counts a program as read-only (its redirections are checked apart). */
export type ReadOnly =
  | true
  | {
      /** Not read-only when any argument matches. */
      unless?: RegExp;
      /** Not read-only with more operands (words that are not options) than this. */
      maxOperands?: number;
      /** Every operand must match. */
      operands?: RegExp;
      /** A parser decides: git's subcommands and flags, sed's and awk's scripts, a shell's -c string. */
      by?: "git-subcommand" | "sed-script" | "awk-program" | "shell-command";
    };

/** A subcommand (`npm ls`, `git push`): what it does, and options that make a read write. */
export interface Subcommand {
  effects: readonly Effect[];
  /** A read that writes when one of its arguments matches (`npm audit fix`). */
  writesWhen?: RegExp;
}

/** How a program runs another command named in its arguments (shell-runners.ts). */
export interface Runner {
  /** The command follows the runner's own options: `tini -- CMD`, `gosu USER CMD`. */
  direct?: true;
  /** The command follows one of these subcommand paths: `uv run CMD`, `uv tool run CMD`. */
  after?: readonly (readonly string[])[];
  /** Options whose value is a shell script: `nix-shell --run 'CMD'`. */
  scriptOptions?: readonly string[];
  /** An argument that makes it type keys into a shell or run code of its own language. */
  opaque?: RegExp;
  /** It hands one word to `sh -c` (`tmux new 'rm -rf ~'`). */
  wordIsScript?: true;
}

/** A prefix that runs the rest of the line as a command (shell-wrappers.ts). */
export interface Wrapper {
  /**
   * options: skip options, the first operand is the command; operand: one operand (a mask, a root)
   * comes first; assignments: NAME=value words come first (env); per-input: the command runs once
   * per input line (xargs); builtin-lookup: `command -v` only looks the name up.
   */
  kind: "options" | "operand" | "assignments" | "per-input" | "builtin-lookup";
}

export interface ProgramEntry {
  /** The names it is run by (aliases and builds of one program share the entry). */
  names: readonly string[];
  /** Also matches these names with a version suffix (`python3.12`, `php8`), any letter case. */
  versioned?: true;
  traits?: readonly Trait[];
  /** Options that take the next word as their value (`-o FILE`, `--init-file FILE`); short ones also glued (`-oFILE`). */
  valueOptions?: readonly string[];
  /** Options known to take no value (for programs whose unknown long options make the parse uncertain). */
  flagOptions?: readonly string[];
  /** Letters of a short option cluster that take the next word (`-o pipefail` in `bash -eo pipefail`). */
  valueLetters?: string;
  /** Options whose value is code or a code file (awk's `-f`, `-i`): listed apart from valueOptions. */
  codeFileOptions?: readonly string[];
  /** Options whose value is program text (awk's `-e`). */
  codeOptions?: readonly string[];
  /** Options that make a wrapper run its command in another folder (`env -C DIR`, `sudo --chdir=DIR`). */
  folderOptions?: readonly string[];
  /** Options whose value is a folder it writes into (`tar -C DIR` when extracting, `pip --target DIR`). */
  writesIntoOption?: { short: readonly string[]; long: readonly string[]; onlyWhenExtracting?: true };
  /** Its arguments (joined by spaces) install a program onto the user's PATH (`npm i -g`, `cargo install`). */
  installsGlobally?: RegExp;
  /** An option whose next word is code to run (`python -c`, `node -e`); the code follows it. */
  inlineCodeOption?: RegExp;
  /** Options that load a module of code before the script (`node -r`). */
  loadsCodeOptions?: readonly string[];
  /** Options of one subcommand that take a value (`docker exec -u USER`). */
  subcommandOptions?: Readonly<Record<string, readonly string[]>>;
  subcommands?: Readonly<Record<string, Subcommand>>;
  /** Root privileges: the rule key the screen reports. */
  escalates?: string;
  rule?: ScreenRule;
  runCheck?: RunCheck;
  /** Options whose value is a command it runs (`tar --to-command`, `man -P`). */
  runOptions?: { long: readonly string[]; short: readonly string[] };
  readOnly?: ReadOnly;
  runner?: Runner;
  wrapper?: Wrapper;
  /** A test on the arguments (joined by spaces) that says it prints a credential. */
  printsSecret?: RegExp;
  /** System administration: always (null) or when an argument (or the whole line) matches. */
  admin?: RegExp | null;
  /** Removes installed system packages when an argument matches. */
  removesPackages?: RegExp;
  /** Destroys data or infrastructure when its arguments (joined by spaces) match: [test, what it does]. */
  destroys?: readonly (readonly [RegExp, string])[];
}
