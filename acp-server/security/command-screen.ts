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
// This file is the public entry: it walks the parsed commands (following `cd`, links made in
// the line, downloads), hands each to screen-one-command.ts, which dispatches it to its rule
// families, and picks the verdict. Path handling lives in screen-paths.ts / screen-state.ts.
import os from "node:os";
import path from "node:path";
import { parseShell, type SimpleCommand } from "./shell-parse";
import type { Word } from "./shell-types";
import { BLOCK_DEVICE, describeArea, isWithin, resolvePath, sensitiveArea, tildeLabel, type State } from "./screen-paths";
import type { Finding } from "./screen-rule";
import { downloadedFiles } from "./screen-exec";
import { DECLARERS, DOWNLOADERS } from "./programs/tables";
import { credentialArea, inHermesState } from "./screen-state";
import { PATTERN_MARKERS } from "./shell-words";
import { screenOneCommand, type CommandScreen } from "./screen-one-command";

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
  /** The workspace's other roots (ACP additionalDirectories): writes there are workspace writes. */
  extraRoots?: readonly string[];
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

/** Files that run later, outside any sandbox: anything in a .git folder (hooks, config) or a new .git, editor tasks, direnv, npm settings. */
const DEFERRED_EXEC = /\/\.git(\/|$)|\/\.vscode\/(tasks|settings|launch)\.json$|\/\.envrc$|\/\.npmrc$|\/\.yarnrc(\.yml)?$|\/\.gitattributes$|\/\.gitmodules$/;
/** Scratch places a write outside the workspace may go without asking. */
const SCRATCH_WRITE = /^\/(tmp|var\/tmp|dev\/shm)(\/|$)|^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;
const FUNCTION_DEF = /(?:^|[\s;&|(){}])(?:function\s+)?([A-Za-z_][\w.:-]*)\s*\(\s*\)|\bfunction\s+([A-Za-z_][\w.:-]*)|\balias\s+([\w.:-]+)=/g;

function currentUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    // expected: os.userInfo() throws where the uid has no passwd entry (some containers): $USER instead
    return process.env.USER ?? "";
  }
}

class Screener implements CommandScreen {
  readonly findings: Finding[] = [];
  readonly st: State;
  cwdComputed = false;
  readonly functions = new Set<string>();
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
    if (ctx.extraRoots?.length) this.st.extraRoots = ctx.extraRoots.map((root) => path.posix.normalize(root));
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
    const [target, ...rest] = operands;
    if (target === undefined) return;
    const link = rest.at(-1) ?? path.posix.basename(target);
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
      const [, name = "HOME", value = ""] = m; // both groups always take part in a match
      this.unresolved("reassigned-path", `${name} is reassigned, so \`~\` and \`cd\` after it cannot be followed`);
      for (const dir of value.split(":")) {
        if (dir !== "" && inHermesState(this.abs(dir), this.st)) this.add("dangerous", "hermes-state", `${name} is set to ${dir}, inside Hermes's own state, which commands may not change`);
        if (name === "CDPATH") this.cdPath.push(dir);
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
    } else if (this.st.workspace && !isWithin(abs, this.st.workspace) && !this.st.extraRoots?.some((root) => isWithin(abs, root)) && !SCRATCH_WRITE.test(abs)) {
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
      // `env -C / rm -rf etc`: that one command runs in the wrapper's folder.
      const saved = cmd.chdir ? { cwd: this.st.cwd, computed: this.cwdComputed } : undefined;
      if (cmd.chdir) this.changeDirectory(cmd.chdir.text, cmd.chdir, cmd.assignments);
      screenOneCommand(this, cmd, cmds);
      if (saved) {
        this.st.cwd = saved.cwd;
        this.cwdComputed = saved.computed;
      }
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
    else this.changeDirectory(operand, cmd.argWords[at], cmd.assignments);
  }

  private changeDirectory(operand: string, word: Word | undefined, assignments: readonly string[]): void {
    // `cd NAME` searches CDPATH first: any entry could be where the line goes.
    for (const dir of this.cdPath) {
      if (!operand.startsWith("/") && !operand.startsWith(".") && inHermesState(this.abs(path.posix.join(dir, operand)), this.st)) {
        this.add("dangerous", "hermes-state", `\`cd ${operand}\` may enter ${this.show(this.abs(path.posix.join(dir, operand)))} through CDPATH, Hermes's own state folder`);
      }
    }
    if (this.cdPath.length > 0 || assignments.some((a) => a.startsWith("CDPATH="))) this.cwdComputed = true;
    this.st.cwd = this.abs(operand);
    // A word we cannot see is computed, as far as the screen knows.
    if (!word || word.dynamic.some((d) => !PATTERN_MARKERS.has(d)) || this.st.cwd.includes("$")) this.cwdComputed = true;
  }

  readsFile(word: string, how: string): void {
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
