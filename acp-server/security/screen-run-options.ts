// Command-screen rules for options that make a program run another command of the caller's
// choosing: git `--upload-pack`/`ext::`/`rebase --exec`/`bisect run`/..., `npx -c`, `make
// SHELL=`, `tar --to-command`, `rsync -e`, `ssh -o ProxyCommand`, `man -P`, `sort
// --compress-program`, sqlite3 `.shell`, and variables such as `GIT_PROXY_COMMAND`. The
// command is unresolved (asks in default, refused in plan, sandbox-only in dont_ask), and a
// literal value is also screened as a script, so `--upload-pack='rm -rf ~'` stays a hardline.
import type { SimpleCommand } from "./shell-parse";
import type { Screen } from "./screen-rule";
import type { RunCheck } from "./programs/program-entry";
import { programEntry } from "./programs/registry";
import { valueOptionsOf } from "./programs/tables";

function runs(s: Screen, how: string, value?: string): void {
  s.unresolved("runs-option", `${how} makes the program run a command of the caller's choosing`);
  if (value !== undefined && value !== "") s.nested(value, how);
}

/** The value of `--name=v`, `--name v`, `-xv` or `-x v` at `args[k]`, when it is that option. */
function optionValue(args: string[], k: number, long: readonly string[], short: readonly string[]): string | undefined {
  const a = args[k];
  if (a === undefined) return undefined;
  for (const name of long) {
    if (a === name) return args[k + 1] ?? "";
    if (a.startsWith(name + "=")) return a.slice(name.length + 1);
  }
  for (const name of short) {
    if (a === name) return args[k + 1] ?? "";
    if (a.startsWith(name) && !a.startsWith("--")) return a.slice(name.length);
  }
  return undefined;
}

function scan(s: Screen, program: string, args: string[], long: readonly string[], short: readonly string[]): void {
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!; // k < args.length
    const value = optionValue(args, k, long, short);
    if (value !== undefined) runs(s, `${program} ${a.startsWith("--") ? a.split("=")[0] : a.slice(0, 2)}`, value);
  }
}

function checkGit(s: Screen, args: string[]): void {
  let k = 0;
  for (; k < args.length; k++) {
    const a = args[k]!; // k < args.length
    if (a === "--config-env" || a.startsWith("--config-env=")) runs(s, "git --config-env");
    if (!a.startsWith("-")) break;
    if (valueOptionsOf("git").has(a)) k++;
  }
  const sub = args[k] ?? "";
  const rest = args.slice(k + 1);
  if (args.some((a) => /(^|['"\s])ext::/.test(a))) runs(s, "git's ext:: transport");
  if (["ls-remote", "fetch", "clone", "pull", "push", "archive", "submodule"].includes(sub)) {
    scan(s, `git ${sub}`, rest, ["--upload-pack", "--receive-pack", "--exec"], ["ls-remote", "clone", "fetch", "pull"].includes(sub) ? ["-u"] : []);
  }
  if (sub === "submodule" && rest.includes("foreach")) runs(s, "git submodule foreach", rest.slice(rest.indexOf("foreach") + 1).filter((a) => a !== "--recursive" && a !== "-q" && a !== "--quiet").join(" "));
  if (sub === "rebase") scan(s, "git rebase", rest, ["--exec"], ["-x"]);
  if (sub === "bisect" && rest[0] === "run") runs(s, "git bisect run", rest.slice(1).join(" "));
  if (sub === "difftool" || sub === "mergetool") scan(s, `git ${sub}`, rest, ["--extcmd"], ["-x"]);
  if (sub === "filter-branch" || sub === "filter-repo") runs(s, `git ${sub}`);
  if (sub === "grep") scan(s, "git grep", rest, ["--open-files-in-pager"], ["-O"]);
}

const SSH_COMMAND_OPTION = /^(ProxyCommand|LocalCommand|KnownHostsCommand|RemoteCommand|PermitLocalCommand|ProxyUseFdpass|Match)\b/i;

function checkSshOptions(s: Screen, program: string, args: string[]): void {
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!; // k < args.length
    const opt = a === "-o" ? args[k + 1] ?? "" : a.startsWith("-o") ? a.slice(2) : undefined;
    if (opt !== undefined && SSH_COMMAND_OPTION.test(opt)) runs(s, `${program} -o ${opt.split(/[=\s]/)[0]}`, /^(ProxyCommand|LocalCommand)/i.test(opt) ? opt.replace(/^\w+\s*=?\s*/, "") : undefined);
    if (a === "-F" || (a.startsWith("-F") && a.length > 2)) runs(s, `${program} -F (a config file that may set ProxyCommand)`);
    if ((program === "scp" || program === "sftp") && (a === "-S" || a.startsWith("-S"))) runs(s, `${program} -S`, a === "-S" ? args[k + 1] : a.slice(2));
  }
}

/** Variables whose value is a command some program runs (beyond those screen-exec.ts already screens). */
const RUNS_VAR = /^([A-Z0-9_]*_COMMAND|npm_config_.*|NPM_CONFIG_.*|GIT_CONFIG_.*|MAKEFLAGS|MFLAGS)$/;

export function checkRunOptions(s: Screen, cmd: SimpleCommand): void {
  const { program: p, args } = cmd;
  for (const assignment of cmd.assignments) {
    const name = assignment.slice(0, assignment.indexOf("="));
    if (RUNS_VAR.test(name)) runs(s, `${name}=`, name.endsWith("_COMMAND") ? assignment.slice(name.length + 1) : undefined);
  }
  const entry = programEntry(p);
  if (entry?.runOptions) scan(s, p, args, entry.runOptions.long, entry.runOptions.short);
  if (entry?.runCheck) RUN_CHECKS[entry.runCheck](s, cmd);
}

/** The checks that need more than a list of options, by the name a registry entry gives. */
const RUN_CHECKS: Record<RunCheck, (s: Screen, cmd: SimpleCommand) => void> = {
  "git-transport": (s, cmd) => checkGit(s, cmd.args),
  "npm-scripts": (s, { program: p, args }) => {
    const ops = args.filter((a) => !a.startsWith("-"));
    if (ops[0] === "exec" || ops[0] === "x") scan(s, `${p} exec`, args, ["--call"], ["-c"]);
    if (ops[0] === "pkg" && ops[1] === "set" && ops.slice(2).some((a) => /^scripts\.|^config\.|^bin/.test(a))) {
      runs(s, `${p} pkg set scripts`);
      s.add("dangerous", "deferred-exec", `${p} pkg set writes a package.json script that runs later, outside any sandbox`);
    }
    if (ops[0] === "set-script") {
      runs(s, `${p} set-script`);
      s.add("dangerous", "deferred-exec", `${p} set-script writes a package.json script that runs later, outside any sandbox`);
    }
    if ((ops[0] === "config" && ops[1] === "set") || ops[0] === "set") {
      const keys = ops.slice(ops[0] === "set" ? 1 : 2);
      if (keys.some((a) => /^(script-shell|shell|node-options|onload-script|editor|browser|git|userconfig|globalconfig|prefix)\b/i.test(a))) runs(s, `${p} config set ${keys[0]}`);
    }
    if (args.some((a) => /^--(script-shell|shell|node-options|userconfig)(=|$)/.test(a))) runs(s, `${p} --script-shell`);
  },
  "make-shell": (s, { args }) => {
    for (let k = 0; k < args.length; k++) {
      const a = args[k]!; // k < args.length
      if (/^(SHELL|MAKESHELL|\.SHELLFLAGS)=/.test(a)) runs(s, `make ${a.split("=")[0]}=`, a.slice(a.indexOf("=") + 1));
      if (a === "--eval" || a.startsWith("--eval=") || a === "-E" || (a.startsWith("-E") && a.length > 2)) runs(s, "make --eval");
      const file = optionValue(args, k, ["--file", "--makefile"], ["-f"]);
      if (file !== undefined && /^(\/dev\/(stdin|fd\/\d+)|-|\/proc\/self\/fd\/\d+)$/.test(file)) runs(s, "make -f /dev/stdin");
    }
  },
  "tar-checkpoint": (s, { program: p, args }) => {
    // registry-scan: tar's checkpoint actions (exec, sh), not programs.
    for (const a of args) if (/^--checkpoint-action=(exec|sh)/.test(a) || (a.startsWith("--checkpoint-action") && args.includes("exec"))) runs(s, `${p} --checkpoint-action=exec`, a.replace(/^--checkpoint-action=(exec|sh)=?/, ""));
  },
  "rsync-shell": (s, { args }) => {
    for (let k = 0; k < args.length; k++) {
      const rsh = optionValue(args, k, ["--rsh"], ["-e"]);
      if (rsh !== undefined && !/^ssh(\s+(-[pil]\s+[\w./~-]+|-[46CqvAaTtx]+))*$/.test(rsh.trim())) runs(s, "rsync -e", rsh);
      const remote = optionValue(args, k, ["--rsync-path"], []);
      if (remote !== undefined) runs(s, "rsync --rsync-path", remote);
    }
  },
  "ssh-options": (s, { program: p, args }) => checkSshOptions(s, p, args),
  "sqlite-dot-commands": (s, cmd) => {
    const texts = [...cmd.args, ...cmd.redirects.map((r) => r.heredoc ?? (r.op === "<<<" ? r.target : ""))];
    if (texts.some((t) => /(^|\n|;)\s*\.(shell|system|load|output|once)\b/.test(t))) runs(s, "sqlite3 .shell/.system");
    if (cmd.args.some((a) => a === "-cmd" || a === "-init")) runs(s, "sqlite3 -cmd/-init");
  },
};
