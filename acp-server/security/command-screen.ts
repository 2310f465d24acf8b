// Screens a `terminal` command line before it runs. "hardline" commands are never run, in
// any mode; "dangerous" ones need the user's answer (each finding carries a stable key the
// user can "always allow"); everything else is "safe". The line is parsed with
// shell-parse.ts, so wrappers (sudo, env, bash -c, eval, $(...), xargs) cannot hide a
// command, while quoted text (a commit message, an echo) is never mistaken for one.
import path from "node:path";
import { parseShell, type SimpleCommand } from "./shell-parse";

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

interface Finding {
  level: Exclude<ScreenLevel, "safe">;
  key: string;
  reason: string;
}

const RANK: Record<ScreenLevel, number> = { safe: 0, dangerous: 1, hardline: 2 };

/** Top-level system folders whose deletion breaks the machine. */
const SYSTEM_DIRS = ["/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/proc", "/root", "/sbin", "/sys", "/usr", "/var", "/home", "/Users", "/System", "/Library", "/Applications", "/private"];
/** System folders where a write (not a delete) still needs the user's say. */
const WRITE_PROTECTED = ["/etc", "/boot", "/bin", "/sbin", "/usr", "/lib", "/lib32", "/lib64", "/root", "/sys"];

const BLOCK_DEVICE = /^\/dev\/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|rdisk\d|md\d|dm-\d|loop\d|sr\d|mapper\/|mem$|kmem$|port$)/;
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "posh"]);
const INTERPRETER = /^(python[0-9.]*|pypy[0-9.]*|perl[0-9.]*|ruby[0-9.]*|node|nodejs|php[0-9.]*|lua[0-9.]*|deno|bun)$/;
const DOWNLOADERS = new Set(["curl", "wget", "fetch", "aria2c"]);
const SQL_CLIENTS = new Set(["psql", "mysql", "mariadb", "sqlite3", "sqlite", "sqlcmd", "clickhouse-client", "cockroach", "duckdb", "pgcli", "mycli", "litecli"]);
const MONGO_CLIENTS = new Set(["mongo", "mongosh"]);
const ESCALATORS: Record<string, string> = { sudo: "sudo", doas: "doas", pkexec: "pkexec", su: "su" };
const WRITE_OPS = new Set([">", ">>", ">|", "&>", "&>>", "<>"]);
const RC_FILES = [".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zprofile", ".zshenv", ".zlogin", ".config/fish/config.fish", ".kshrc", ".cshrc", ".tcshrc"];
const SECRET_DIRS = [".ssh", ".gnupg", ".aws"];

interface State {
  home: string;
  cwd: string;
  hermesHome: string;
}

/** Expand `~`, `$HOME`, `$PWD`, `$HERMES_HOME` at the start of a word and make it absolute. */
export function resolvePath(word: string, cwd: string, home: string, hermesHome = path.posix.join(home, ".hermes")): string {
  let w = word;
  if (w === "~" || w.startsWith("~/")) w = home + w.slice(1);
  else {
    const v = /^(?:\$\{(HOME|PWD|HERMES_HOME)\}|\$(HOME|PWD|HERMES_HOME)(?![A-Za-z0-9_])|\$\((pwd)\)|`(pwd)`)/.exec(w);
    if (v) {
      const name = v[1] ?? v[2] ?? "PWD";
      const value = name === "HOME" ? home : name === "PWD" ? cwd : hermesHome;
      w = value + w.slice(v[0].length);
    }
  }
  const abs = w.startsWith("/") ? w : path.posix.join(cwd, w);
  const norm = path.posix.normalize(abs);
  return norm.length > 1 ? norm.replace(/\/+$/, "") : norm;
}

function isWithin(target: string, dir: string): boolean {
  return target === dir || target.startsWith(dir === "/" ? "/" : dir + "/");
}

function tildeLabel(p: string, home: string): string {
  return isWithin(p, home) ? "~" + p.slice(home.length) : p;
}

/** The sensitive area a path falls in, as used in "write-sensitive:<area>" keys, or undefined. */
export function sensitiveArea(abs: string, st: State): string | undefined {
  const base = path.posix.basename(abs);
  if (abs === path.posix.join(st.hermesHome, "config.yaml") || abs === path.posix.join(st.hermesHome, ".env")) return "hermes-config";
  if (abs === path.posix.join(st.home, ".hermes", "config.yaml") || abs === path.posix.join(st.home, ".hermes", ".env")) return "hermes-config";
  for (const dir of SECRET_DIRS) if (isWithin(abs, path.posix.join(st.home, dir))) return "~/" + dir;
  for (const rc of RC_FILES) if (abs === path.posix.join(st.home, rc)) return "~/" + rc;
  for (const dir of WRITE_PROTECTED) if (isWithin(abs, dir)) return dir;
  if (/^\.env(\..+)?$|^.+\.env$/.test(base) && !/\.(example|sample|template|dist|defaults?)$/.test(base)) return ".env";
  return undefined;
}

type DeleteClass = { kind: "root" | "system" | "home"; what: string } | undefined;

function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${body}$`);
}

/** Is deleting this operand (recursively) catastrophic: /, a system folder, or the home directory? */
function classifyDelete(word: string, st: State): DeleteClass {
  const abs = resolvePath(word, st.cwd, st.home, st.hermesHome);
  let target = abs;
  let contents = false;
  const last = path.posix.basename(abs);
  if (abs !== "/" && /^[*.?]+$/.test(last)) {
    target = path.posix.dirname(abs);
    contents = true;
  } else if (abs !== "/" && /[*?[]/.test(last) && path.posix.dirname(abs) === "/") {
    // `/u*` may match /usr.
    const re = globToRegExp(last);
    const hit = SYSTEM_DIRS.find((d) => re.test(d.slice(1)));
    if (hit) return { kind: "system", what: `${abs}, which matches the system folder ${hit}` };
  }
  const show = contents ? `everything in ${target}` : target;
  const showSystem = contents ? `everything in the system folder ${target}` : `the system folder ${target}`;
  if (target === "/") return { kind: "root", what: contents ? "everything in /" : "/" };
  if (target === st.home || isWithin(st.home, target)) return { kind: "home", what: tildeLabel(target, st.home) === "~" ? (contents ? "everything in ~" : "~") : show };
  if (SYSTEM_DIRS.includes(target)) return { kind: "system", what: showSystem };
  return undefined;
}

function shortFlags(args: string[]): { short: string; long: string[]; operands: string[] } {
  let short = "";
  const long: string[] = [];
  const operands: string[] = [];
  let ended = false;
  for (const a of args) {
    if (ended || a === "-" || !a.startsWith("-")) operands.push(a);
    else if (a === "--") ended = true;
    else if (a.startsWith("--")) long.push(a);
    else short += a.slice(1);
  }
  return { short, long, operands };
}

function firstSubcommand(args: string[], withArg: Set<string>): { sub: string | undefined; rest: string[] } {
  let k = 0;
  while (k < args.length && args[k].startsWith("-")) k += withArg.has(args[k]) ? 2 : 1;
  return { sub: args[k], rest: args.slice(k + 1) };
}

/** Does this command run a script it reads from stdin (`sh`, `bash -s`, `python -`)? */
function readsScriptFromStdin(cmd: SimpleCommand): boolean {
  if (SHELLS.has(cmd.program)) {
    const { short, long, operands } = shortFlags(cmd.args);
    if (short.includes("c") || long.includes("--command")) return false;
    if (short.includes("s")) return true;
    return operands.length === 0 || operands[0] === "-";
  }
  if (INTERPRETER.test(cmd.program)) {
    let k = 0;
    while (k < cmd.args.length) {
      const a = cmd.args[k];
      if (a === "-") return true;
      if (!a.startsWith("-")) return false; // a script file
      if (/^-[a-zA-Z]*[cmeEpr]/.test(a) || a === "--eval" || a === "--print") return false;
      k += a === "-W" || a === "-X" || a === "-I" ? 2 : 1;
    }
    return true;
  }
  return false;
}

function isBase64Decode(cmd: SimpleCommand): boolean {
  if (cmd.program === "base64" || cmd.program === "base32" || cmd.program === "basenc") {
    const { short, long } = shortFlags(cmd.args);
    return /[dD]/.test(short) || long.includes("--decode");
  }
  if (cmd.program === "openssl") return cmd.args.includes("-d") && cmd.args.some((a) => a === "base64" || a === "-base64" || a === "-a");
  return false;
}

const DOWNLOAD_SUBST = /(\$\(|`|<\()\s*(sudo\s+)?(curl|wget|fetch)\b/;

function worldWritableMode(mode: string): boolean {
  if (/^[0-7]{3,4}$/.test(mode)) return ["2", "3", "6", "7"].includes(mode[mode.length - 1]);
  return mode.split(",").some((clause) => {
    const m = /^([ugoa]*)([+=])([rwxXst]*)$/.exec(clause);
    if (!m) return false;
    const who = m[1];
    return m[3].includes("w") && (who.includes("a") || who.includes("o"));
  });
}

class Screener {
  readonly findings: Finding[] = [];
  private readonly st: State;

  constructor(ctx: ScreenContext) {
    const home = path.posix.normalize(ctx.home).replace(/(.)\/+$/, "$1");
    this.st = {
      home,
      cwd: path.posix.normalize(ctx.cwd),
      hermesHome: ctx.hermesHome ? path.posix.normalize(ctx.hermesHome) : path.posix.join(home, ".hermes"),
    };
  }

  private add(level: Finding["level"], key: string, reason: string): void {
    if (!this.findings.some((f) => f.key === key && f.reason === reason)) this.findings.push({ level, key, reason });
  }

  private abs(word: string): string {
    return resolvePath(word, this.st.cwd, this.st.home, this.st.hermesHome);
  }

  private show(abs: string): string {
    return tildeLabel(abs, this.st.home);
  }

  /** A write into `word`: hardline for a raw disk, dangerous for a sensitive file. */
  private write(word: string, how: string): void {
    if (word === "" || word.startsWith("<(") || word.startsWith(">(")) return;
    const abs = this.abs(word);
    if (BLOCK_DEVICE.test(abs)) {
      this.add("hardline", "write-block-device", `${how} writes straight onto the disk device ${abs}, destroying its data`);
      return;
    }
    const area = sensitiveArea(abs, this.st);
    if (area) this.add("dangerous", `write-sensitive:${area}`, `${how} writes to ${this.show(abs)}${describeArea(area)}`);
  }

  private deleted(word: string, how: string, verb = "removes"): void {
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

    if (/^mkfs\../.test(p)) this.add("hardline", "mkfs", `${p} formats a disk partition, destroying everything on it`);

    switch (p) {
      case "rm":
        this.checkRm(cmd);
        break;
      case "shred":
        this.add("dangerous", "shred", "shred irrecoverably overwrites and deletes files");
        for (const a of shortFlags(args).operands) this.write(a, "shred");
        break;
      case "unlink":
        for (const a of args) this.deleted(a, "unlink");
        break;
      case "find":
        if (args.includes("-delete")) this.add("dangerous", "find-delete", "find -delete removes every file the search matches");
        for (let k = 0; k < args.length; k++) {
          if (["-exec", "-execdir", "-ok", "-okdir"].includes(args[k]) && ["rm", "shred", "unlink", "rmdir"].includes(path.posix.basename(args[k + 1] ?? "").replace(/^\\/, ""))) {
            this.add("dangerous", "find-exec-rm", `find ${args[k]} ${args[k + 1]} deletes every file the search matches`);
          }
        }
        break;
      case "mkfs":
      case "mke2fs":
      case "mkswap":
      case "wipefs":
        this.add("hardline", "mkfs", `${p} formats or wipes a disk, destroying everything on it`);
        break;
      case "dd":
        for (const a of args) if (a.startsWith("of=")) this.write(a.slice(3), "dd");
        for (const a of args) if (a.startsWith("of=") && BLOCK_DEVICE.test(this.abs(a.slice(3)))) this.add("hardline", "dd-block-device", `dd overwrites the disk device ${this.abs(a.slice(3))}, destroying its data`);
        break;
      case "kill":
        this.checkKill(args);
        break;
      case "shutdown":
      case "reboot":
      case "halt":
      case "poweroff":
        if (!args.some((a) => a === "-c" || a === "--help" || a === "--cancel")) this.add("hardline", "shutdown", `${p} shuts down or restarts the machine`);
        break;
      case "init":
      case "telinit":
        if (args[0] === "0" || args[0] === "6") this.add("hardline", "shutdown", `${p} ${args[0]} shuts down or restarts the machine`);
        break;
      case "systemctl": {
        const { sub } = firstSubcommand(args, new Set(["-H", "-M", "--host", "--machine", "-t", "--type", "-p", "--property", "-s", "--signal"]));
        if (sub && ["poweroff", "reboot", "halt", "kexec", "soft-reboot"].includes(sub)) this.add("hardline", "shutdown", `systemctl ${sub} shuts down or restarts the machine`);
        break;
      }
      case "git":
        this.checkGit(args);
        break;
      case "chmod":
      case "chown":
      case "chgrp":
        this.checkPermissions(cmd);
        break;
      case "tee":
        for (const a of shortFlags(args).operands) this.write(a, "tee");
        break;
      case "cp":
      case "mv":
      case "install":
      case "rsync":
        this.checkCopy(cmd);
        break;
      case "sed":
        this.checkSed(args);
        break;
      case "truncate": {
        const ops: string[] = [];
        for (let k = 0; k < args.length; k++) {
          if (args[k] === "-s" || args[k] === "-r") k++;
          else if (!args[k].startsWith("-")) ops.push(args[k]);
        }
        for (const a of ops) this.write(a, "truncate");
        break;
      }
      case "curl":
      case "wget":
        for (let k = 0; k < args.length; k++) {
          const a = args[k];
          if ((p === "curl" && (a === "-o" || a === "--output")) || (p === "wget" && (a === "-O" || a === "--output-document"))) this.write(args[k + 1] ?? "", p);
          else if (a.startsWith("--output=") || a.startsWith("--output-document=")) this.write(a.slice(a.indexOf("=") + 1), p);
        }
        break;
      case "redis-cli":
        if (args.some((a) => /^flush(all|db)$/i.test(a))) this.add("dangerous", "redis-flush", "redis-cli FLUSHALL/FLUSHDB erases the whole Redis database");
        break;
      default:
        break;
    }

    // rm (or any deleter) fed a file list by xargs.
    if (cmd.wrappers.includes("xargs") && ["rm", "shred", "unlink", "rmdir"].includes(p)) {
      this.add("dangerous", "xargs-rm", `xargs ${p} deletes every file named on its input`);
    }

    // Download or decode piped into a shell.
    if (DOWNLOADERS.has(p) || isBase64Decode(cmd)) {
      const sink = all.find((c) => c.pipeline === cmd.pipeline && c.stage > cmd.stage && readsScriptFromStdin(c));
      if (sink) {
        if (DOWNLOADERS.has(p)) this.add("dangerous", "curl-pipe-shell", `pipes a script downloaded by ${p} straight into ${sink.program} without a chance to read it`);
        else this.add("dangerous", "base64-pipe-shell", `decodes hidden base64 content and runs it with ${sink.program}`);
      }
    }
    if (SHELLS.has(p) || INTERPRETER.test(p) || p === "eval" || p === "source" || p === ".") {
      if (args.some((a) => DOWNLOAD_SUBST.test(a))) this.add("dangerous", "curl-pipe-shell", `runs a script downloaded from the internet with ${p} without a chance to read it`);
    }

    if (SQL_CLIENTS.has(p) || MONGO_CLIENTS.has(p)) this.checkSql(cmd, all);
  }

  private checkRm(cmd: SimpleCommand): void {
    const { short, long, operands } = shortFlags(cmd.args);
    const recursive = /[rR]/.test(short) || long.includes("--recursive");
    const force = short.includes("f") || long.includes("--force");
    if (long.includes("--no-preserve-root")) {
      this.add("hardline", "rm-no-preserve-root", "rm --no-preserve-root switches off the safeguard against deleting the whole filesystem");
    }
    let catastrophic = false;
    if (recursive) {
      for (const op of operands) {
        const cls = classifyDelete(op, this.st);
        if (!cls) continue;
        catastrophic = true;
        if (cls.kind === "root") this.add("hardline", "rm-recursive-root", `recursive delete of the root filesystem (${cls.what})`);
        else if (cls.kind === "home") this.add("hardline", "rm-recursive-home", cls.what.startsWith("~") || cls.what.includes(" ~") ? `recursive delete of the home directory (${cls.what})` : `recursive delete of ${cls.what}, which holds the home directory`);
        else this.add("hardline", "rm-recursive-system", `recursive delete of ${cls.what}`);
      }
    }
    if (!catastrophic) {
      const what = operands.length > 0 ? operands.map((o) => (o === "" ? '""' : o)).join(" ") : "the files it is given";
      if (recursive) this.add("dangerous", "rm-recursive", `recursive delete (rm -r) of ${what}`);
      else if (force) this.add("dangerous", "rm-force", `forced delete (rm -f) of ${what}, without confirmation`);
    }
    for (const op of operands) this.deleted(op, "rm");
  }

  private checkKill(args: string[]): void {
    if (args.length === 1 && args[0] === "-1") {
      this.add("hardline", "kill-all-processes", "kill -1 targets every process you can signal");
      return;
    }
    let k = 0;
    if (args[0] === "-s" || args[0] === "-n") k = 2;
    else if (args[0] !== undefined && args[0].startsWith("-") && args[0] !== "--" && args.length > 1) k = 1;
    for (; k < args.length; k++) {
      if (args[k] === "--") continue;
      if (args[k] === "-1") this.add("hardline", "kill-all-processes", "kill with pid -1 signals every process you can reach, killing your session and the machine's services");
    }
  }

  private checkGit(args: string[]): void {
    const { sub, rest } = firstSubcommand(args, new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path"]));
    const { short, long, operands } = shortFlags(rest);
    switch (sub) {
      case "reset":
        if (long.includes("--hard")) this.add("dangerous", "git-reset-hard", "git reset --hard throws away uncommitted changes");
        break;
      case "push":
        if (short.includes("f") || long.some((l) => l === "--force" || l.startsWith("--force-with-lease") || l === "--force-if-includes" || l === "--mirror") || operands.some((o) => o.startsWith("+"))) {
          this.add("dangerous", "git-push-force", "force-push rewrites the remote branch's history and can destroy others' commits");
        }
        if (short.includes("d") || long.includes("--delete") || operands.slice(1).some((o) => o.startsWith(":") && o.length > 1)) {
          this.add("dangerous", "git-push-delete", "git push --delete removes a branch or tag from the remote");
        }
        break;
      case "clean":
        if ((short.includes("f") || long.includes("--force")) && !short.includes("n") && !long.includes("--dry-run")) {
          this.add("dangerous", "git-clean-force", "git clean -f permanently deletes untracked files");
        }
        break;
      case "branch":
        if (short.includes("D") || (short.includes("d") && short.includes("f")) || ((long.includes("--delete") || short.includes("d")) && long.includes("--force"))) {
          this.add("dangerous", "git-branch-force-delete", "git branch -D deletes a branch even if its commits are not merged");
        }
        break;
      default:
        break;
    }
  }

  private checkPermissions(cmd: SimpleCommand): void {
    const { short, long, operands } = shortFlags(cmd.args);
    // chmod modes like -w or -x look like flags; recursion is the capital R only.
    if (!(short.includes("R") || long.includes("--recursive"))) return;
    const [spec, ...targets] = operands;
    if (cmd.program === "chmod" && spec !== undefined && worldWritableMode(spec)) {
      this.add("dangerous", "chmod-777-recursive", `chmod -R ${spec} makes every file under ${targets.join(" ") || "the target"} writable by anyone`);
    }
    for (const t of targets) {
      const abs = this.abs(t);
      const inHome = isWithin(abs, this.st.home);
      if (abs === "/" || (isWithin(this.st.home, abs) && abs !== this.st.home) || (!inHome && SYSTEM_DIRS.some((d) => isWithin(abs, d)))) {
        this.add("dangerous", `${cmd.program}-recursive-system`, `${cmd.program} -R changes ownership or permissions throughout ${this.show(abs)}, a system location`);
      }
    }
  }

  private checkCopy(cmd: SimpleCommand): void {
    const p = cmd.program;
    const args = cmd.args;
    const operands: string[] = [];
    let targetDir: string | undefined;
    let ended = false;
    for (let k = 0; k < args.length; k++) {
      const a = args[k];
      if (ended || !a.startsWith("-") || a === "-") operands.push(a);
      else if (a === "--") ended = true;
      else if (a === "-t") targetDir = args[++k];
      else if (a.startsWith("--target-directory=")) targetDir = a.slice(19);
      else if (a === "-S" || a === "--suffix" || a === "-m" || a === "-o" || a === "-g" || a === "-e") k++;
    }
    if (operands.length === 0) return;
    const dest = targetDir ?? operands[operands.length - 1];
    const sources = targetDir !== undefined ? operands : operands.slice(0, -1);
    if (p === "mv" && this.abs(dest) === "/dev/null") {
      this.add("dangerous", "mv-dev-null", "mv into /dev/null destroys the moved files");
      return;
    }
    const destAbs = this.abs(dest);
    // The destination may be a folder: then the file lands at dest/<source name>.
    if (BLOCK_DEVICE.test(destAbs) || sensitiveArea(destAbs, this.st)) this.write(dest, p);
    else for (const s of sources) this.write(path.posix.join(dest, path.posix.basename(s)), p);
    if (p === "mv") for (const s of sources) this.deleted(s, "mv", "moves away");
  }

  private checkSed(args: string[]): void {
    let inPlace = false;
    let hasScript = false;
    const operands: string[] = [];
    for (let k = 0; k < args.length; k++) {
      const a = args[k];
      if (a === "--") {
        operands.push(...args.slice(k + 1));
        break;
      }
      if (!a.startsWith("-") || a === "-") operands.push(a);
      else if (a.startsWith("--")) {
        if (a.startsWith("--in-place")) inPlace = true;
        else if (a === "--expression" || a === "--file") {
          hasScript = true;
          k++;
        } else if (a.startsWith("--expression=") || a.startsWith("--file=")) hasScript = true;
      } else {
        const cluster = a.slice(1);
        const iAt = cluster.indexOf("i");
        const eAt = cluster.search(/[ef]/);
        if (iAt >= 0 && (eAt < 0 || iAt < eAt)) inPlace = true;
        if (eAt >= 0 && (iAt < 0 || eAt < iAt)) {
          hasScript = true;
          if (eAt === cluster.length - 1) k++;
        }
      }
    }
    if (!inPlace) return;
    for (const f of hasScript ? operands : operands.slice(1)) this.write(f, "sed -i");
  }

  private checkSql(cmd: SimpleCommand, all: SimpleCommand[]): void {
    const texts = [...cmd.args];
    for (const r of cmd.redirects) {
      if (r.heredoc !== undefined) texts.push(r.heredoc);
      if (r.op === "<<<") texts.push(r.target);
    }
    // `echo "DROP TABLE x" | psql`
    for (const c of all) {
      if (c.pipeline === cmd.pipeline && c.stage < cmd.stage && (c.program === "echo" || c.program === "printf")) texts.push(...c.args);
    }
    const text = texts.join(" ");
    if (MONGO_CLIENTS.has(cmd.program)) {
      if (/\.drop(Database)?\s*\(/.test(text)) this.add("dangerous", "mongo-drop", `${cmd.program} drops a collection or database`);
      if (/\.(deleteMany|remove)\s*\(\s*\{\s*\}\s*\)/.test(text)) this.add("dangerous", "mongo-delete-all", `${cmd.program} deletes every document in a collection`);
    }
    const m = /\bdrop\s+(table|database|schema|collection)\b/i.exec(text);
    if (m) this.add("dangerous", "sql-drop", `${cmd.program} runs DROP ${m[1].toUpperCase()}, permanently deleting it and its data`);
    if (/\btruncate\b/i.test(text)) this.add("dangerous", "sql-truncate", `${cmd.program} runs TRUNCATE, emptying a table`);
    for (const stmt of text.split(";")) {
      if (/\bdelete\s+from\s+\S+/i.test(stmt) && !/\bwhere\b/i.test(stmt)) {
        this.add("dangerous", "sql-delete-all", `${cmd.program} runs DELETE FROM without WHERE, deleting every row`);
      }
    }
  }
}

function describeArea(area: string): string {
  if (area === "hermes-config") return ", Hermes's own configuration";
  if (area === ".env") return ", an environment file that usually holds secrets";
  if (area === "~/.ssh") return ", where SSH keys and trusted hosts live";
  if (area === "~/.gnupg" || area === "~/.aws") return ", where credentials live";
  if (area.startsWith("~/.")) return ", a shell startup file that runs in every new terminal";
  return `, inside the system folder ${area}`;
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
