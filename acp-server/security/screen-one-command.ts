// Screens one simple command of a parsed line: reports what cannot be resolved (a computed
// name or argument, a function defined in the line, a computed redirection), checks its
// redirections, then hands it to the rule families that know its program (screen-delete,
// screen-git, screen-pipe, screen-writes, screen-sql, screen-system, screen-exec, ...) and
// finally checks its operands against credentials and Hermes's own state.
// command-screen.ts walks the line (folders, links, downloads) and picks the verdict; this
// file only decides what one command is.
import type { SimpleCommand } from "./shell-parse";
import type { Screen } from "./screen-rule";
import { checkFindDelete, checkRm, checkShred, checkUnlink, checkXargsDelete } from "./screen-delete";
import { checkAwkSed, checkCodeFedToShell, checkCommandRunners, checkEnvAssignments, checkGitExec, checkInterpreter } from "./screen-exec";
import { checkGit } from "./screen-git";
import { checkRunOptions } from "./screen-run-options";
import { checkGitDiscard, checkOperations, checkReverseShell, checkTruncation } from "./screen-ops";
import { checkPipeToShell } from "./screen-pipe";
import { checkEnvironmentToNetwork } from "./screen-exfiltration";
import { checkPushToNewRemote } from "./screen-git-remote";
import { checkHardLinks } from "./screen-hard-links";
import { checkIndirectReads } from "./screen-indirect-reads";
import { checkWriteTargets } from "./screen-targets";
import { programEntry } from "./programs/registry";
import { ARGS_ARE_DATA, DECLARERS, NO_CONTENT_READ, O_IS_NOT_OUTPUT, SHELLS, subcommandsWith } from "./programs/tables";
import type { ScreenRule } from "./programs/program-entry";
import { checkRedis, checkSql, isDatabaseClient } from "./screen-sql";
import { checkRemotePackage } from "./screen-packages";
import { checkSecretTools } from "./screen-secret-tools";
import { inHermesState } from "./screen-state";
import { checkContainer, checkDiskTool, checkFormat, checkKill, checkKillByName, checkMkfsVariant, checkPermissions, checkScheduler, checkShutdown } from "./screen-system";
import { checkCopy, checkDd, checkDownloadOutput, checkSed, checkTee, checkTruncate } from "./screen-writes";
import { PATTERN_MARKERS } from "./shell-words";
import { readOnlyCommand } from "./read-only-commands";
import { shellInvocation } from "./shell-invocation";

/** What the line walker knows beyond a rule's Screen: functions defined in the line, whether the folder is known. */
export interface CommandScreen extends Screen {
  /** Names of shell functions and aliases the line defines. */
  readonly functions: ReadonlySet<string>;
  /** A `cd` to a computed folder came earlier in the line: relative paths are unknown. */
  readonly cwdComputed: boolean;
  /** `word` is read by `how`: reading a credential asks. */
  readsFile(word: string, how: string): void;
}

const WRITE_OPS = new Set([">", ">>", ">|", "&>", "&>>", "<>"]);
/** Option values that are messages, not paths or commands (git commit -m "$(cat <<EOF ...)"). */
const MESSAGE_OPTIONS = new Set(["-m", "--message", "-F", "--file", "--author", "--date", "--grep", "--format", "--pretty", "-n", "--since", "--until", "--trailer"]);

type Rule = (s: CommandScreen, cmd: SimpleCommand, all: SimpleCommand[]) => void;
/** rimraf, del and the trash tools take whole folders without a -r: read as `rm -rf`. */
const asRecursiveRm = (cmd: SimpleCommand, args: string[]): SimpleCommand => ({ ...cmd, args: ["-rf", ...args.filter((a) => !a.startsWith("-"))] });
/** The rule that knows a program's arguments, by the name its registry entry gives (programs/program-entry.ts). */
const SCREEN_RULES: Record<ScreenRule, Rule> = {
  "delete-files": (s, cmd) => checkRm(s, cmd),
  "delete-trees": (s, cmd) => checkRm(s, asRecursiveRm(cmd, cmd.args)),
  "trash-subcommand": (s, cmd) => {
    if (subcommandsWith(cmd.program, "delete").has(cmd.args[0] ?? "")) checkRm(s, asRecursiveRm(cmd, cmd.args.slice(1)));
  },
  "overwrite-files": (s, cmd) => checkShred(s, cmd.args),
  "delete-entries": (s, cmd) => checkUnlink(s, cmd.args),
  "find-delete": (s, cmd) => checkFindDelete(s, cmd.args),
  format: (s, cmd) => checkFormat(s, cmd.program),
  "raw-copy": (s, cmd) => checkDd(s, cmd.args),
  "signal-pids": (s, cmd) => checkKill(s, cmd.args),
  "kill-by-name": (s, cmd) => checkKillByName(s, cmd.program, cmd.args),
  "power": (s, cmd) => checkShutdown(s, cmd.program, cmd.args),
  "version-control": (s, cmd) => {
    checkGit(s, cmd.args);
    checkGitDiscard(s, cmd.args);
    checkGitExec(s, cmd.args);
  },
  permissions: (s, cmd) => checkPermissions(s, cmd),
  "copy-stdin": (s, cmd) => checkTee(s, cmd.args),
  copy: (s, cmd) => {
    checkCopy(s, cmd);
    checkHardLinks(s, cmd);
  },
  "stream-edit": (s, cmd) => checkSed(s, cmd.args),
  "resize-or-create": (s, cmd) => checkTruncate(s, cmd.args),
  "download-output": (s, cmd) => checkDownloadOutput(s, cmd.program, cmd.args),
  redis: (s, cmd, all) => checkRedis(s, cmd, all),
  scheduler: (s, cmd) => checkScheduler(s, cmd.program, cmd.args),
  container: (s, cmd) => checkContainer(s, cmd.program, cmd.args),
  "run-script-file": (s, cmd) => {
    const [file] = cmd.args;
    if (file !== undefined) s.executes(file, cmd.program);
    if (file !== undefined && /^\/dev\/(stdin|fd\/)|^\/proc\/self\/fd\//.test(file)) s.unresolved("code-on-stdin", `${cmd.program} ${file} runs code read at run time`);
  },
  "disk-discard": (s, cmd) => checkDiskTool(s, "disk-discard", cmd.program, cmd.args),
  "erase-subcommand": (s, cmd) => checkDiskTool(s, "erase-subcommand", cmd.program, cmd.args),
  "signature-wipe": (s, cmd) => checkDiskTool(s, "signature-wipe", cmd.program, cmd.args),
  partition: (s, cmd) => checkDiskTool(s, "partition", cmd.program, cmd.args),
  "disk-settings": (s, cmd) => checkDiskTool(s, "disk-settings", cmd.program, cmd.args),
  "encrypted-disk": (s, cmd) => checkDiskTool(s, "encrypted-disk", cmd.program, cmd.args),
  "disk-surface-test": (s, cmd) => checkDiskTool(s, "disk-surface-test", cmd.program, cmd.args),
  "raid-metadata": (s, cmd) => checkDiskTool(s, "raid-metadata", cmd.program, cmd.args),
  "storage-destroy": (s, cmd) => checkDiskTool(s, "storage-destroy", cmd.program, cmd.args),
  firmware: (s, cmd) => checkDiskTool(s, "firmware", cmd.program, cmd.args),
  kernel: (s, cmd) => checkDiskTool(s, "kernel", cmd.program, cmd.args),
};

// The order of the checks below fixes the order of the reasons in the result.
export function screenOneCommand(s: CommandScreen, cmd: SimpleCommand, all: SimpleCommand[]): void {
  const p = cmd.program;

  for (const reason of cmd.unresolved) s.unresolved("computed", reason);
  // `rｍ` (a fullwidth m), `$'\u0440m'`: a name with non-ASCII letters is made to look like another command.
  // `env 'BASH_FUNC_ls%%=() { …; }' bash -c ls`: env takes any NAME=value, and bash imports that one as a function.
  if (p.includes("=")) s.unresolved("env-code", `\`${p.slice(0, 60)}\` sets a variable the screen cannot classify (BASH_FUNC_* imports shell functions)`);
  if (/[^\x20-\x7e]/.test(p)) s.unresolved("lookalike-name", `the command name \`${p}\` has non-ASCII characters that may imitate another command`);
  if (s.functions.has(p)) s.unresolved("function", `\`${p}\` is a shell function or alias defined in this command; what it runs depends on its arguments at run time`);

  for (const w of cmd.wrappers) {
    const esc = programEntry(w)?.escalates;
    if (esc) s.add("dangerous", esc, `runs \`${cmd.program || "a shell"}\` with root privileges (${esc})`);
  }
  const escalates = programEntry(p)?.escalates;
  if (escalates) s.add("dangerous", escalates, `${p} runs commands with root privileges`);

  checkEnvAssignments(s, cmd);
  checkComputedArguments(s, cmd);

  for (const r of cmd.redirects) {
    const writes = WRITE_OPS.has(r.op) || (r.op === ">&" && !/^(\d+|-)$/.test(r.target));
    if (writes && r.dynamic?.some((d) => !PATTERN_MARKERS.has(d))) {
      s.unresolved("redirect", `the redirection \`${r.op} ${r.target}\` writes to a file named at run time`);
      // `>> $OLDPWD/config.yaml`, `>> ${PWD%/*}/.hermes/...`: a folder variable edited at run time may name Hermes's own.
      if (/^\$\{?#?(OLDPWD|PWD|HOME|HERMES_HOME|DIRSTACK|XDG_[A-Z_]+)\b/.test(r.target) || /\.hermes\b|config\.yaml$/.test(r.target)) {
        s.add("dangerous", "hermes-state", `the redirection \`${r.op} ${r.target}\` writes under a folder computed at run time, which may be Hermes's own state`);
      }
    }
    else if (writes && r.dynamic?.length) s.unresolved("redirect-glob", `the redirection \`${r.op} ${r.target}\` writes to whichever file the pattern matches at run time`);
    if (writes) s.write(r.target, `the redirection \`${r.op} ${r.target}\``);
    if (writes && s.cwdComputed && !r.target.startsWith("/") && !/^(\d+|-)$/.test(r.target)) {
      // The folder is only known at run time, so it may be Hermes's own (`for d in ~/.hermes; do cd $d; ...`).
      s.unresolved("cwd-write", `the redirection \`${r.op} ${r.target}\` writes into a folder computed at run time`);
      s.add("dangerous", "hermes-state", `the redirection \`${r.op} ${r.target}\` writes into a folder computed at run time, which may be Hermes's own state`);
    }
    if (r.op === "<" || r.op === "<>") s.readsFile(r.target, `the redirection \`< ${r.target}\``);
  }

  checkMkfsVariant(s, p);

  const entry = programEntry(p);
  if (entry?.rule) SCREEN_RULES[entry.rule](s, cmd, all);

  s.executes(p, "the command");
  if (SHELLS.has(p)) {
    // The script file comes after the options and their values (`bash -o pipefail x.sh`).
    const invocation = shellInvocation(cmd.args);
    const script = invocation.operands[0];
    if (!invocation.command && script !== undefined && script !== "-") s.executes(script, p);
  }
  checkXargsDelete(s, cmd);
  checkPipeToShell(s, cmd, all);
  checkCodeFedToShell(s, cmd, all);
  checkInterpreter(s, cmd);
  checkAwkSed(s, cmd);
  checkCommandRunners(s, cmd);
  checkRemotePackage(s, cmd);
  checkSecretTools(s, cmd);
  checkRunOptions(s, cmd);
  checkTruncation(s, cmd);
  checkReverseShell(s, cmd);
  checkOperations(s, cmd);
  checkWriteTargets(s, cmd);
  if (isDatabaseClient(p)) checkSql(s, cmd, all);
  checkEnvironmentToNetwork(s, cmd, all);
  checkIndirectReads(cmd, all, (word, how) => s.readsFile(word, how));
  checkPushToNewRemote(s, cmd, all);
  checkOperands(s, cmd);
}

/** A command whose arguments are computed at run time, or that runs in a computed folder, is unresolved. */
function checkComputedArguments(s: CommandScreen, cmd: SimpleCommand): void {
  const p = cmd.program;
  if (p === "" || DECLARERS.has(p)) return;
  const tolerant = ARGS_ARE_DATA.has(p);
  if (cmd.wrappers.includes("xargs") && !tolerant) s.unresolved("xargs", `xargs runs \`${p}\` with arguments read at run time`);
  if (cmd.wrappers.includes("find -exec") && !tolerant) s.unresolved("find-exec", `find -exec runs \`${p}\` on every file the search finds at run time`);
  if (s.cwdComputed && !tolerant) s.unresolved("cwd", `\`${p}\` runs in a folder computed at run time, so its relative paths cannot be checked`);
  if (tolerant) return;
  const isGitMessage = p === "git" && ["commit", "tag", "log", "show", "notes", "shortlog"].includes(cmd.args.find((a) => !a.startsWith("-")) ?? "");
  cmd.argWords.forEach((word, i) => {
    const computed = word.dynamic.filter((d) => !PATTERN_MARKERS.has(d));
    if (computed.length === 0) return;
    if (isGitMessage && (MESSAGE_OPTIONS.has(cmd.args[i - 1] ?? "") || /^(-m|--message=|--format=|--pretty=|--author=|--grep=)/.test(word.text))) return;
    s.unresolved("argument", `\`${p}\` receives an argument computed at run time (${computed.join(", ")})`);
  });
}

/** Reading credentials asks; a program that may write, given a path into Hermes's state, does too (refused in dont_ask). */
function checkOperands(s: CommandScreen, cmd: SimpleCommand): void {
  const p = cmd.program;
  if (p === "") return;
  const operands = cmd.args.flatMap((a) => (a.startsWith("-") ? (a.includes("=") ? [a.slice(a.indexOf("=") + 1)] : /^-[A-Za-z]\/./.test(a) ? [a.slice(2)] : []) : a.includes("=") && !a.startsWith("/") && !a.startsWith(".") ? [a.slice(a.indexOf("=") + 1)] : [a]));
  if (!NO_CONTENT_READ.has(p)) for (const op of operands) s.readsFile(op, `\`${p}\``);
  outputOptions(s, cmd);
  if (readOnlyCommand(cmd)) return;
  if (inHermesState(s.st.cwd, s.st)) {
    s.add("dangerous", "hermes-state", `\`${p}\` runs inside ${s.show(s.st.cwd)}, Hermes's own state folder, where it may change Hermes's configuration`);
  }
  for (const op of operands) {
    if (op === "" || /^[a-z][\w+.-]*:\/\//i.test(op)) continue;
    const abs = s.abs(op);
    if (inHermesState(abs, s.st)) s.add("dangerous", "hermes-state", `\`${p}\` is given ${s.show(abs)}, inside Hermes's own state, which commands may not change`);
  }
}

/** `-o FILE`, `--output=FILE`, ...: most programs write there (gcc, sort, curl, pandoc, tsc --outFile). */
function outputOptions(s: CommandScreen, cmd: SimpleCommand): void {
  // Downloaders' own output options are read by their rule (screen-writes.ts).
  if (O_IS_NOT_OUTPUT.has(cmd.program) || programEntry(cmd.program)?.rule === "download-output") return;
  cmd.args.forEach((a, i) => {
    const next = cmd.args[i + 1];
    if (/^(-o|--output|--output-file|--outfile|--outFile|--out|--log-file|--logfile)$/.test(a) && next !== undefined) s.write(next, `${cmd.program} ${a}`);
    else if (/^--(output|output-file|outfile|outFile|out|log-file|logfile)=./.test(a)) s.write(a.slice(a.indexOf("=") + 1), `${cmd.program} ${a.slice(0, a.indexOf("="))}`);
  });
}

