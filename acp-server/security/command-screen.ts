// Screens a `terminal` command line before it runs. It fails closed:
//   "hardline"  — never run, in any mode (wiping /, ~ or a disk, writing Hermes's own state, ...);
//   "dangerous" — needs the user's answer; each finding carries a stable key, and findings
//                 marked `unresolved` are the ones that cannot be known before the command
//                 runs (a computed command name, code piped into a shell, `python -c`, xargs
//                 arguments, ...) — those never become "always allow" rules and, in dont_ask,
//                 run only inside the sandbox;
//   "safe"      — every command resolved, and no rule found harm.
// The line is parsed with shell-parse.ts, so wrappers (sudo, env, bash -c, eval, $(...),
// xargs, find -exec, timeout, nohup, ...) cannot hide a command, and quoted text (a commit
// message, an echo) is never mistaken for one. Commands are screened in the folder they run
// in: the tool's workdir, then every `cd`/`pushd` of the line.
//
// This file is the public entry: it walks the parsed commands, dispatches each to its rule
// family (screen-delete, screen-git, screen-pipe, screen-writes, screen-sql, screen-system,
// screen-exec) and picks the verdict. Path handling lives in screen-paths.ts / screen-state.ts.
import os from "node:os";
import path from "node:path";
import { parseShell, SHELLS, type SimpleCommand } from "./shell-parse";
import { BLOCK_DEVICE, describeArea, isWithin, resolvePath, sensitiveArea, tildeLabel, type State } from "./screen-paths";
import type { Finding, Screen } from "./screen-rule";
import { checkFindDelete, checkRm, checkShred, checkUnlink, checkXargsDelete } from "./screen-delete";
import { checkAwkSed, checkCodeFedToShell, checkCommandRunners, checkEnvAssignments, checkGitExec, checkInterpreter, downloadedFiles } from "./screen-exec";
import { checkGit } from "./screen-git";
import { checkRunOptions } from "./screen-run-options";
import { checkGitDiscard, checkOperations, checkReverseShell, checkTruncation } from "./screen-ops";
import { checkPipeToShell } from "./screen-pipe";
import { ARGS_ARE_DATA, DECLARERS, DOWNLOADERS, ESCALATORS, MESSAGE_OPTIONS, NO_CONTENT_READ, NOT_OUTPUT_OPTION } from "./screen-programs";
import { checkRedis, checkSql, isDatabaseClient } from "./screen-sql";
import { credentialArea, inHermesState } from "./screen-state";
import { checkContainer, checkDiskTool, checkFormat, checkKill, checkKillByName, checkMkfsVariant, checkPermissions, checkScheduler, checkShutdown } from "./screen-system";
import { checkCopy, checkDd, checkDownloadOutput, checkSed, checkTee, checkTruncate } from "./screen-writes";
import { PATTERN_MARKERS } from "./shell-words";
import { readOnlyCommand } from "./read-only-commands";

export { resolvePath, sensitiveArea } from "./screen-paths";

export type ScreenLevel = "hardline" | "dangerous" | "safe";

export interface ScreenContext {
  /** The user's home directory (absolute). */
  home: string;
  /** The directory the command runs in (absolute): the tool's workdir, else the session folder. */
  cwd: string;
  /** Hermes's own state folder ($HERMES_HOME); defaults to `~/.hermes`. */
  hermesHome?: string;
  /** The user's login name, for `~name` and `$USER`; defaults to the current user. */
  user?: string;
  /** The session's workspace folder (`cwd` may be a workdir elsewhere). */
  workspace?: string;
}

export interface ScreenResult {
  level: ScreenLevel;
  /** Short human sentences explaining the verdict (only those of the winning level). */
  reasons: string[];
  /** Stable rule keys of the winning level, e.g. "rm-recursive", "sudo", "write-sensitive:~/.ssh". */
  keys: string[];
  /** Some part of the line cannot be resolved statically (never safe, never saved as "always"). */
  unresolved: boolean;
  /** The line touches Hermes's own state ($HERMES_HOME): refused in dont_ask, never saved as "always". */
  hermesState: boolean;
}

const RANK: Record<ScreenLevel, number> = { safe: 0, dangerous: 1, hardline: 2 };

/** Files that run later, outside any sandbox: git hooks and config, editor tasks, direnv, npm settings. */
const DEFERRED_EXEC = /\/\.git\/(hooks\/|config$|info\/attributes$)|\/\.vscode\/(tasks|settings|launch)\.json$|\/\.envrc$|\/\.npmrc$|\/\.yarnrc(\.yml)?$|\/\.gitattributes$|\/\.gitmodules$/;
/** Scratch places a write outside the workspace may go without asking. */
const SCRATCH_WRITE = /^\/(tmp|var\/tmp|dev\/shm)(\/|$)|^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;
const WRITE_OPS = new Set([">", ">>", ">|", "&>", "&>>", "<>"]);
const FUNCTION_DEF = /(?:^|[\s;&|(){}])(?:function\s+)?([A-Za-z_][\w.:-]*)\s*\(\s*\)|\bfunction\s+([A-Za-z_][\w.:-]*)|\balias\s+([\w.:-]+)=/g;

function currentUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    return process.env.USER ?? "";
  }
}

class Screener implements Screen {
  readonly findings: Finding[] = [];
  readonly st: State;
  private cwdComputed = false;
  private readonly functions = new Set<string>();
  private readonly downloads = new Set<string>();
  private readonly user: string;
  private nestDepth = 0;

  constructor(ctx: ScreenContext) {
    const home = path.posix.normalize(ctx.home).replace(/(.)\/+$/, "$1");
    this.user = ctx.user ?? currentUser();
    this.st = {
      home,
      cwd: path.posix.normalize(ctx.cwd),
      hermesHome: ctx.hermesHome ? path.posix.normalize(ctx.hermesHome).replace(/(.)\/+$/, "$1") : path.posix.join(home, ".hermes"),
    };
    if (ctx.workspace) this.st.workspace = path.posix.normalize(ctx.workspace);
  }

  parse(line: string): SimpleCommand[] {
    return parseShell(line, { home: this.st.home, hermesHome: this.st.hermesHome, user: this.user });
  }

  add(level: Finding["level"], key: string, reason: string): void {
    if (!this.findings.some((f) => f.key === key && f.reason === reason)) this.findings.push({ level, key, reason });
  }

  unresolved(key: string, reason: string): void {
    const full = `unresolved:${key}`;
    if (!this.findings.some((f) => f.key === full && f.reason === reason)) this.findings.push({ level: "dangerous", key: full, reason, unresolved: true });
  }

  abs(word: string): string {
    let abs = resolvePath(word, this.st.cwd, this.st.home, this.st.hermesHome);
    // A link made earlier in the same line (`ln -s ~ hh; echo x > hh/.bashrc`) is not on disk yet.
    for (let hop = 0; hop < 8; hop++) {
      const link = [...this.plannedLinks.keys()].find((l) => isWithin(abs, l));
      if (link === undefined) break;
      abs = path.posix.normalize((this.plannedLinks.get(link) as string) + abs.slice(link.length));
    }
    return abs;
  }

  /** Links a command creates (`ln -s TARGET LINK`), so later commands of the line resolve them. */
  private readonly plannedLinks = new Map<string, string>();

  private recordLink(cmd: SimpleCommand): void {
    if (cmd.program !== "ln" || !cmd.args.some((a) => /^-[A-Za-z]*s|^--symbolic$/.test(a))) return;
    const operands = cmd.args.filter((a) => !a.startsWith("-"));
    if (operands.length === 0) return;
    const target = operands[0];
    const link = operands.length > 1 ? operands[operands.length - 1] : path.posix.basename(target);
    const targetAbs = target.startsWith("/") || target.startsWith("~") || target.startsWith("$") ? this.abs(target) : this.abs(path.posix.join(path.posix.dirname(link), target));
    this.plannedLinks.set(this.abs(link), targetAbs);
  }

  /**
   * `HOME=...` or `CDPATH=...` set in the line change what `~` and `cd NAME` mean after it;
   * the screen parsed them with the real values, so the rest of the line is unresolved, and
   * a value inside Hermes's state makes the line a Hermes-state change.
   */
  private checkReassignedPaths(cmd: SimpleCommand): void {
    const assigned = [...cmd.assignments, ...(cmd.program === "" || DECLARERS.has(cmd.program) ? cmd.args : [])];
    for (const a of assigned) {
      const m = /^(HOME|CDPATH)=(.*)$/.exec(a);
      if (!m) continue;
      this.unresolved("reassigned-path", `${m[1]} is reassigned, so \`~\` and \`cd\` after it cannot be followed`);
      for (const dir of m[2].split(":")) {
        if (dir !== "" && inHermesState(this.abs(dir), this.st)) this.add("dangerous", "hermes-state", `${m[1]} is set to ${dir}, inside Hermes's own state, which commands may not change`);
        if (m[1] === "CDPATH") this.cdPath.push(dir);
      }
    }
  }

  private readonly cdPath: string[] = [];

  show(abs: string): string {
    return tildeLabel(abs, this.st.home);
  }

  /** A write into `word`: hardline for a raw disk or Hermes's state, dangerous for a sensitive file. */
  write(word: string, how: string): void {
    if (word === "" || word.startsWith("<(") || word.startsWith(">(")) return;
    const abs = this.abs(word);
    if (BLOCK_DEVICE.test(abs)) {
      this.add("hardline", "write-block-device", `${how} writes straight onto the disk device ${abs}, destroying its data`);
      return;
    }
    if (/^\/proc\/sysrq-trigger$|^\/sys\/power\/state$|^\/dev\/watchdog\d*$|^\/proc\/sys\/kernel\/(panic|sysrq)/.test(abs)) {
      this.add("hardline", "sysrq", `${how} writes to ${abs}, which can crash, reboot or suspend the machine at once`);
      return;
    }
    if (inHermesState(abs, this.st)) {
      this.add("hardline", "write-hermes-state", `${how} writes to ${this.show(abs)}, Hermes's own state (config, keys, memory, skills, sessions), which commands may not change`);
      return;
    }
    if (!abs.startsWith("/") || abs.includes("$")) return;
    const area = sensitiveArea(abs, this.st);
    if (area) this.add("dangerous", `write-sensitive:${area}`, `${how} writes to ${this.show(abs)}${describeArea(area)}`);
    else if (DEFERRED_EXEC.test(abs)) {
      this.add("dangerous", "write-deferred-exec", `${how} writes to ${this.show(abs)}, which git, the editor, direnv or npm run later, outside any sandbox`);
    } else if (this.st.workspace && !isWithin(abs, this.st.workspace) && !SCRATCH_WRITE.test(abs)) {
      this.add("dangerous", "write-outside-workspace", `${how} writes to ${this.show(abs)}, outside the workspace`);
    }
  }

  deleted(word: string, how: string, verb = "removes"): void {
    const abs = this.abs(word);
    if (inHermesState(abs, this.st)) {
      this.add("hardline", "write-hermes-state", `${how} ${verb} ${this.show(abs)}, Hermes's own state, which commands may not change`);
      return;
    }
    const area = sensitiveArea(abs, this.st);
    if (area) this.add("dangerous", `delete-sensitive:${area}`, `${how} ${verb} ${this.show(abs)}${describeArea(area)}`);
  }

  nested(script: string, via: string): void {
    if (this.nestDepth > 4) {
      this.unresolved("too-deep", `${via} nests scripts too deeply to follow`);
      return;
    }
    this.nestDepth++;
    const saved = { cwd: this.st.cwd, computed: this.cwdComputed };
    this.screen(this.parse(script), script);
    this.st.cwd = saved.cwd;
    this.cwdComputed = saved.computed;
    this.nestDepth--;
  }

  executes(file: string, how: string): void {
    const base = path.posix.basename(file);
    if (this.downloads.has(base)) {
      this.unresolved("download-run", `${how} runs ${file}, downloaded earlier in the same command, without a chance to read it`);
    }
  }

  screen(cmds: SimpleCommand[], line: string): void {
    if (/([^\s(){}|;&<>]+)\s*\(\s*\)\s*\{[^}]*?\1\s*\|\s*&?\s*\1\s*&/.test(line) || /function\s+([^\s(){}|;&<>]+)\s*(\(\s*\))?\s*\{[^}]*?\1\s*\|\s*\1\s*&/.test(line)) {
      this.add("hardline", "fork-bomb", "a fork bomb: a function that endlessly spawns copies of itself and freezes the machine");
    }
    for (const m of line.matchAll(FUNCTION_DEF)) {
      const name = m[1] ?? m[2] ?? m[3];
      if (name && name !== "function") this.functions.add(name);
    }
    for (const cmd of cmds) {
      this.checkReassignedPaths(cmd);
      this.check(cmd, cmds);
      this.recordLink(cmd);
      for (const file of downloadedFiles(cmd.program, cmd.args)) this.downloads.add(path.posix.basename(file));
      if (DOWNLOADERS.has(cmd.program)) for (const r of cmd.redirects) if (r.op === ">" || r.op === ">>") this.downloads.add(path.posix.basename(r.target));
      this.followDirectory(cmd);
    }
  }

  private followDirectory(cmd: SimpleCommand): void {
    if (cmd.program === "popd" || (cmd.program === "pushd" && cmd.args.length === 0)) {
      this.cwdComputed = true;
      return;
    }
    if (cmd.program !== "cd" && cmd.program !== "pushd") return;
    const at = cmd.args.findIndex((a) => !a.startsWith("-") || a === "-");
    const operand = at < 0 ? undefined : cmd.args[at];
    if (operand === undefined) this.st.cwd = this.st.home;
    else if (operand === "-") this.cwdComputed = true;
    else {
      // `cd NAME` searches CDPATH first: any entry could be where the line goes.
      for (const dir of this.cdPath) {
        if (!operand.startsWith("/") && !operand.startsWith(".") && inHermesState(this.abs(path.posix.join(dir, operand)), this.st)) {
          this.add("dangerous", "hermes-state", `\`cd ${operand}\` may enter ${this.show(this.abs(path.posix.join(dir, operand)))} through CDPATH, Hermes's own state folder`);
        }
      }
      if (this.cdPath.length > 0 || cmd.assignments.some((a) => a.startsWith("CDPATH="))) this.cwdComputed = true;
      this.st.cwd = this.abs(operand);
      if (cmd.argWords[at].dynamic.some((d) => !PATTERN_MARKERS.has(d)) || this.st.cwd.includes("$")) this.cwdComputed = true;
    }
  }

  // The order of the checks below fixes the order of the reasons in the result.
  private check(cmd: SimpleCommand, all: SimpleCommand[]): void {
    const { program: p, args } = cmd;

    for (const reason of cmd.unresolved) this.unresolved("computed", reason);
    // `rｍ` (a fullwidth m), `$'\u0440m'`: a name with non-ASCII letters is made to look like another command.
    if (/[^\x21-\x7e]/.test(p)) this.unresolved("lookalike-name", `the command name \`${p}\` has non-ASCII characters that may imitate another command`);
    if (this.functions.has(p)) this.unresolved("function", `\`${p}\` is a shell function or alias defined in this command; what it runs depends on its arguments at run time`);

    for (const w of cmd.wrappers) {
      const esc = ESCALATORS[w];
      if (esc) this.add("dangerous", esc, `runs \`${cmd.program || "a shell"}\` with root privileges (${esc})`);
    }
    if (ESCALATORS[p]) this.add("dangerous", ESCALATORS[p], `${p} runs commands with root privileges`);

    checkEnvAssignments(this, cmd);
    this.checkComputedArguments(cmd);

    for (const r of cmd.redirects) {
      const writes = WRITE_OPS.has(r.op) || (r.op === ">&" && !/^(\d+|-)$/.test(r.target));
      if (writes && r.dynamic?.some((d) => !PATTERN_MARKERS.has(d))) {
        this.unresolved("redirect", `the redirection \`${r.op} ${r.target}\` writes to a file named at run time`);
        // `>> $OLDPWD/config.yaml`, `>> ${PWD%/*}/.hermes/...`: a folder variable edited at run time may name Hermes's own.
        if (/^\$\{?#?(OLDPWD|PWD|HOME|HERMES_HOME|DIRSTACK|XDG_[A-Z_]+)\b/.test(r.target) || /\.hermes\b|config\.yaml$/.test(r.target)) {
          this.add("dangerous", "hermes-state", `the redirection \`${r.op} ${r.target}\` writes under a folder computed at run time, which may be Hermes's own state`);
        }
      }
      else if (writes && r.dynamic?.length) this.unresolved("redirect-glob", `the redirection \`${r.op} ${r.target}\` writes to whichever file the pattern matches at run time`);
      if (writes) this.write(r.target, `the redirection \`${r.op} ${r.target}\``);
      if (writes && this.cwdComputed && !r.target.startsWith("/") && !/^(\d+|-)$/.test(r.target)) {
        // The folder is only known at run time, so it may be Hermes's own (`for d in ~/.hermes; do cd $d; ...`).
        this.unresolved("cwd-write", `the redirection \`${r.op} ${r.target}\` writes into a folder computed at run time`);
        this.add("dangerous", "hermes-state", `the redirection \`${r.op} ${r.target}\` writes into a folder computed at run time, which may be Hermes's own state`);
      }
      if (r.op === "<" || r.op === "<>") this.readsFile(r.target, `the redirection \`< ${r.target}\``);
    }

    checkMkfsVariant(this, p);

    switch (p) {
      case "rm":
      case "rimraf":
        checkRm(this, p === "rimraf" ? { ...cmd, args: ["-rf", ...args] } : cmd);
        break;
      case "shred":
        checkShred(this, args);
        break;
      case "unlink":
      case "rmdir":
        checkUnlink(this, args);
        break;
      case "find":
        checkFindDelete(this, args);
        break;
      case "mkfs":
      case "mke2fs":
      case "mkswap":
        checkFormat(this, p);
        break;
      case "dd":
        checkDd(this, args);
        break;
      case "kill":
        checkKill(this, args);
        break;
      case "killall":
      case "killall5":
      case "pkill":
        checkKillByName(this, p, args);
        break;
      case "shutdown":
      case "reboot":
      case "halt":
      case "poweroff":
      case "init":
      case "telinit":
      case "systemctl":
      case "loginctl":
      case "pm-suspend":
      case "pm-hibernate":
      case "rtcwake":
        checkShutdown(this, p, args);
        break;
      case "git":
        checkGit(this, args);
        checkGitDiscard(this, args);
        checkGitExec(this, args);
        break;
      case "chmod":
      case "chown":
      case "chgrp":
        checkPermissions(this, cmd);
        break;
      case "tee":
        checkTee(this, args);
        break;
      case "cp":
      case "mv":
      case "install":
      case "rsync":
      case "ln":
        checkCopy(this, cmd);
        break;
      case "sed":
        checkSed(this, args);
        break;
      case "truncate":
      case "touch":
      case "mkdir":
        checkTruncate(this, args);
        break;
      case "curl":
      case "wget":
        checkDownloadOutput(this, p, args);
        break;
      case "redis-cli":
        checkRedis(this, cmd, all);
        break;
      case "crontab":
      case "at":
      case "batch":
        checkScheduler(this, p, args);
        break;
      case "docker":
      case "podman":
        checkContainer(this, p, args);
        break;
      case "source":
      case ".":
        if (args[0] !== undefined) this.executes(args[0], p);
        if (args[0] !== undefined && /^\/dev\/(stdin|fd\/)|^\/proc\/self\/fd\//.test(args[0])) this.unresolved("code-on-stdin", `${p} ${args[0]} runs code read at run time`);
        break;
      default:
        checkDiskTool(this, p, args);
        break;
    }

    this.executes(p, "the command");
    if (SHELLS.has(p) && !cmd.args.some((a) => /^-[A-Za-z]*c[A-Za-z]*$/.test(a))) {
      const script = cmd.args.find((a) => !a.startsWith("-") && !a.startsWith("+"));
      if (script !== undefined) this.executes(script, p);
    }
    checkXargsDelete(this, cmd);
    checkPipeToShell(this, cmd, all);
    checkCodeFedToShell(this, cmd, all);
    checkInterpreter(this, cmd);
    checkAwkSed(this, cmd);
    checkCommandRunners(this, cmd);
    checkRunOptions(this, cmd);
    checkTruncation(this, cmd);
    checkReverseShell(this, cmd);
    checkOperations(this, cmd);
    if (isDatabaseClient(p)) checkSql(this, cmd, all);
    this.checkOperands(cmd);
  }

  /** A command whose arguments are computed at run time, or that runs in a computed folder, is unresolved. */
  private checkComputedArguments(cmd: SimpleCommand): void {
    const p = cmd.program;
    if (p === "" || DECLARERS.has(p)) return;
    const tolerant = ARGS_ARE_DATA.has(p);
    if (cmd.wrappers.includes("xargs") && !tolerant) this.unresolved("xargs", `xargs runs \`${p}\` with arguments read at run time`);
    if (cmd.wrappers.includes("find -exec") && !tolerant) this.unresolved("find-exec", `find -exec runs \`${p}\` on every file the search finds at run time`);
    if (this.cwdComputed && !tolerant) this.unresolved("cwd", `\`${p}\` runs in a folder computed at run time, so its relative paths cannot be checked`);
    if (tolerant) return;
    const isGitMessage = p === "git" && ["commit", "tag", "log", "show", "notes", "shortlog"].includes(cmd.args.find((a) => !a.startsWith("-")) ?? "");
    cmd.argWords.forEach((word, i) => {
      const computed = word.dynamic.filter((d) => !PATTERN_MARKERS.has(d));
      if (computed.length === 0) return;
      if (isGitMessage && (MESSAGE_OPTIONS.has(cmd.args[i - 1] ?? "") || /^(-m|--message=|--format=|--pretty=|--author=|--grep=)/.test(word.text))) return;
      this.unresolved("argument", `\`${p}\` receives an argument computed at run time (${computed.join(", ")})`);
    });
  }

  /** Reading credentials asks; a program that may write, given a path into Hermes's state, does too (refused in dont_ask). */
  private checkOperands(cmd: SimpleCommand): void {
    const p = cmd.program;
    if (p === "") return;
    const operands = cmd.args.flatMap((a) => (a.startsWith("-") ? (a.includes("=") ? [a.slice(a.indexOf("=") + 1)] : /^-[A-Za-z]\/./.test(a) ? [a.slice(2)] : []) : a.includes("=") && !a.startsWith("/") && !a.startsWith(".") ? [a.slice(a.indexOf("=") + 1)] : [a]));
    if (!NO_CONTENT_READ.has(p)) for (const op of operands) this.readsFile(op, `\`${p}\``);
    this.outputOptions(cmd);
    if (readOnlyCommand(cmd)) return;
    if (inHermesState(this.st.cwd, this.st)) {
      this.add("dangerous", "hermes-state", `\`${p}\` runs inside ${this.show(this.st.cwd)}, Hermes's own state folder, where it may change Hermes's configuration`);
    }
    for (const op of operands) {
      if (op === "" || /^[a-z][\w+.-]*:\/\//i.test(op)) continue;
      const abs = this.abs(op);
      if (inHermesState(abs, this.st)) this.add("dangerous", "hermes-state", `\`${p}\` is given ${this.show(abs)}, inside Hermes's own state, which commands may not change`);
    }
  }

  /** `-o FILE`, `--output=FILE`, ...: most programs write there (gcc, sort, curl, pandoc, tsc --outFile). */
  private outputOptions(cmd: SimpleCommand): void {
    if (NOT_OUTPUT_OPTION.has(cmd.program) || cmd.program === "curl" || cmd.program === "wget") return;
    cmd.args.forEach((a, i) => {
      const next = cmd.args[i + 1];
      if (/^(-o|--output|--output-file|--outfile|--outFile|--out|--log-file|--logfile)$/.test(a) && next !== undefined) this.write(next, `${cmd.program} ${a}`);
      else if (/^--(output|output-file|outfile|outFile|out|log-file|logfile)=./.test(a)) this.write(a.slice(a.indexOf("=") + 1), `${cmd.program} ${a.slice(0, a.indexOf("="))}`);
    });
  }

  private readsFile(word: string, how: string): void {
    if (word === "" || /^[a-z][\w+.-]*:\/\//i.test(word) || /^\d+$/.test(word)) return;
    const abs = this.abs(word);
    const area = credentialArea(abs, this.st);
    if (area) this.add("dangerous", "read-credentials", `${how} reads ${this.show(abs)} (${area}), which holds credentials or secrets`);
  }
}

/** Screen a command line for the terminal tool. The most severe finding over all simple commands wins. */
export function screenCommand(command: string, context: ScreenContext): ScreenResult {
  const screener = new Screener(context);
  screener.screen(screener.parse(command), command);
  let level: ScreenLevel = "safe";
  for (const f of screener.findings) if (RANK[f.level] > RANK[level]) level = f.level;
  const top = screener.findings.filter((f) => f.level === level);
  return {
    level,
    reasons: top.map((f) => f.reason),
    keys: [...new Set(top.map((f) => f.key))],
    unresolved: screener.findings.some((f) => f.unresolved),
    hermesState: screener.findings.some((f) => f.key === "hermes-state" || f.key === "write-hermes-state"),
  };
}
