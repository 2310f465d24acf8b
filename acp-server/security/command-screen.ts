// Screens a `terminal` command line before it runs. "hardline" commands are never run, in
// any mode; "dangerous" ones need the user's answer (each finding carries a stable key the
// user can "always allow"); everything else is "safe". The line is parsed with
// shell-parse.ts, so wrappers (sudo, env, bash -c, eval, $(...), xargs) cannot hide a
// command, while quoted text (a commit message, an echo) is never mistaken for one.
//
// This file is the public entry: it walks the parsed commands, dispatches each to its rule
// family (screen-delete, screen-git, screen-pipe, screen-writes, screen-sql, screen-system)
// and picks the verdict. Path handling lives in screen-paths.ts.
import path from "node:path";
import { parseShell, type SimpleCommand } from "./shell-parse";
import { BLOCK_DEVICE, describeArea, resolvePath, sensitiveArea, tildeLabel, type State } from "./screen-paths";
import type { Finding, Screen } from "./screen-rule";
import { checkFindDelete, checkRm, checkShred, checkUnlink, checkXargsDelete } from "./screen-delete";
import { checkGit } from "./screen-git";
import { checkPipeToShell } from "./screen-pipe";
import { checkRedis, checkSql, isDatabaseClient } from "./screen-sql";
import { checkFormat, checkKill, checkMkfsVariant, checkPermissions, checkShutdown } from "./screen-system";
import { checkCopy, checkDd, checkDownloadOutput, checkSed, checkTee, checkTruncate } from "./screen-writes";

export { resolvePath, sensitiveArea } from "./screen-paths";

export type ScreenLevel = "hardline" | "dangerous" | "safe";

export interface ScreenContext {
  /** The user's home directory (absolute). */
  home: string;
  /** The directory the command runs in (absolute). */
  cwd: string;
  /** Hermes's own config folder; defaults to `~/.hermes`. */
  hermesHome?: string;
}

export interface ScreenResult {
  level: ScreenLevel;
  /** Short human sentences explaining the verdict (only those of the winning level). */
  reasons: string[];
  /** Stable rule keys of the winning level, e.g. "rm-recursive", "sudo", "write-sensitive:~/.ssh". */
  keys: string[];
}

const RANK: Record<ScreenLevel, number> = { safe: 0, dangerous: 1, hardline: 2 };

const ESCALATORS: Record<string, string> = { sudo: "sudo", doas: "doas", pkexec: "pkexec", su: "su" };
const WRITE_OPS = new Set([">", ">>", ">|", "&>", "&>>", "<>"]);

class Screener implements Screen {
  readonly findings: Finding[] = [];
  readonly st: State;

  constructor(ctx: ScreenContext) {
    const home = path.posix.normalize(ctx.home).replace(/(.)\/+$/, "$1");
    this.st = {
      home,
      cwd: path.posix.normalize(ctx.cwd),
      hermesHome: ctx.hermesHome ? path.posix.normalize(ctx.hermesHome) : path.posix.join(home, ".hermes"),
    };
  }

  add(level: Finding["level"], key: string, reason: string): void {
    if (!this.findings.some((f) => f.key === key && f.reason === reason)) this.findings.push({ level, key, reason });
  }

  abs(word: string): string {
    return resolvePath(word, this.st.cwd, this.st.home, this.st.hermesHome);
  }

  show(abs: string): string {
    return tildeLabel(abs, this.st.home);
  }

  /** A write into `word`: hardline for a raw disk, dangerous for a sensitive file. */
  write(word: string, how: string): void {
    if (word === "" || word.startsWith("<(") || word.startsWith(">(")) return;
    const abs = this.abs(word);
    if (BLOCK_DEVICE.test(abs)) {
      this.add("hardline", "write-block-device", `${how} writes straight onto the disk device ${abs}, destroying its data`);
      return;
    }
    const area = sensitiveArea(abs, this.st);
    if (area) this.add("dangerous", `write-sensitive:${area}`, `${how} writes to ${this.show(abs)}${describeArea(area)}`);
  }

  deleted(word: string, how: string, verb = "removes"): void {
    const abs = this.abs(word);
    const area = sensitiveArea(abs, this.st);
    if (area) this.add("dangerous", `delete-sensitive:${area}`, `${how} ${verb} ${this.show(abs)}${describeArea(area)}`);
  }

  screen(cmds: SimpleCommand[], line: string): void {
    if (/([^\s(){}|;&<>]+)\s*\(\s*\)\s*\{[^}]*?\1\s*\|\s*&?\s*\1\s*&/.test(line) || /function\s+([^\s(){}|;&<>]+)\s*(\(\s*\))?\s*\{[^}]*?\1\s*\|\s*\1\s*&/.test(line)) {
      this.add("hardline", "fork-bomb", "a fork bomb: a function that endlessly spawns copies of itself and freezes the machine");
    }
    for (const cmd of cmds) {
      this.check(cmd, cmds);
      if (cmd.program === "cd" || cmd.program === "pushd") {
        const operand = cmd.args.find((a) => !a.startsWith("-") || a === "-");
        if (operand === undefined) this.st.cwd = this.st.home;
        else if (operand !== "-") this.st.cwd = this.abs(operand);
      }
    }
  }

  // The order of the checks below fixes the order of the reasons in the result.
  private check(cmd: SimpleCommand, all: SimpleCommand[]): void {
    const { program: p, args } = cmd;

    for (const w of cmd.wrappers) {
      const esc = ESCALATORS[w];
      if (esc) this.add("dangerous", esc, `runs \`${cmd.program || "a shell"}\` with root privileges (${esc})`);
    }
    if (ESCALATORS[p]) this.add("dangerous", ESCALATORS[p], `${p} runs commands with root privileges`);

    for (const r of cmd.redirects) {
      if (WRITE_OPS.has(r.op) || (r.op === ">&" && !/^(\d+|-)$/.test(r.target))) this.write(r.target, `the redirection \`${r.op} ${r.target}\``);
    }

    checkMkfsVariant(this, p);

    switch (p) {
      case "rm":
        checkRm(this, cmd);
        break;
      case "shred":
        checkShred(this, args);
        break;
      case "unlink":
        checkUnlink(this, args);
        break;
      case "find":
        checkFindDelete(this, args);
        break;
      case "mkfs":
      case "mke2fs":
      case "mkswap":
      case "wipefs":
        checkFormat(this, p);
        break;
      case "dd":
        checkDd(this, args);
        break;
      case "kill":
        checkKill(this, args);
        break;
      case "shutdown":
      case "reboot":
      case "halt":
      case "poweroff":
      case "init":
      case "telinit":
      case "systemctl":
        checkShutdown(this, p, args);
        break;
      case "git":
        checkGit(this, args);
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
        checkCopy(this, cmd);
        break;
      case "sed":
        checkSed(this, args);
        break;
      case "truncate":
        checkTruncate(this, args);
        break;
      case "curl":
      case "wget":
        checkDownloadOutput(this, p, args);
        break;
      case "redis-cli":
        checkRedis(this, args);
        break;
      default:
        break;
    }

    checkXargsDelete(this, cmd);
    checkPipeToShell(this, cmd, all);
    if (isDatabaseClient(p)) checkSql(this, cmd, all);
  }
}

/** Screen a command line for the terminal tool. The most severe finding over all simple commands wins. */
export function screenCommand(command: string, context: ScreenContext): ScreenResult {
  const screener = new Screener(context);
  screener.screen(parseShell(command), command);
  let level: ScreenLevel = "safe";
  for (const f of screener.findings) if (RANK[f.level] > RANK[level]) level = f.level;
  const top = screener.findings.filter((f) => f.level === level);
  return { level, reasons: top.map((f) => f.reason), keys: [...new Set(top.map((f) => f.key))] };
}
