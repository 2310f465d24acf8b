// Plan mode is an allowlist: only commands known to be read-only run, with their arguments
// checked — an option or operand that writes (`sort -o`, `uniq IN OUT`, `tree -o`, `find
// -fprint`, `git diff --output`, `yq -i`, `sed -i`, an awk `>`), a git or package-manager
// subcommand that changes config or refs, `date -s`, `hostname NAME`, a redirection to a file
// other than /dev/null: all refused. The command screen's verdict comes on top (anything it
// cannot resolve is refused in plan mode by the permission policy).
import { parseAwk, parseSed, sedEffects } from "./awk-sed";
import { parseShell, SHELLS, type SimpleCommand } from "./shell-parse";
import { AWKS } from "./screen-programs";

const READ_ONLY_PROGRAMS = new Set([
  "ls", "ll", "la", "cat", "tac", "head", "tail", "less", "more", "wc", "grep", "egrep", "fgrep", "zgrep", "rg", "ag", "fd", "fdfind",
  "pwd", "echo", "printf", "which", "whereis", "type", "stat", "du", "df", "diff", "cmp", "cut", "tr", "jq", "basename", "dirname",
  "realpath", "readlink", "printenv", "whoami", "id", "uname", "ps", "top", "true", "false", "test", "[", "[[", "md5sum", "sha1sum",
  "sha256sum", "sha512sum", "shasum", "b2sum", "cksum", "nl", "column", "od", "hexdump", "strings", "cd", "pushd", "popd", "sleep",
  "expr", "seq", "fold", "fmt", "rev", "paste", "join", "comm", "expand", "unexpand", "tsort", "free", "uptime", "lsof", "pgrep",
  "getconf", "locale", "nproc", "lscpu", "lsblk", "env", "groups", "users", "who", "w", "last", "dig", "host", "nslookup", ":", "file",
  "exit", "set", "wait", "export", "unset", "local", "declare", "typeset", "readonly", "zcat", "bzcat", "xzcat", "pstree", "vmstat", "iostat", "nm", "objdump", "readelf", "size", "sum",
]);

/** Runtimes and compilers allowed only to print their version (they could run anything otherwise). */
const VERSION_ONLY = new Set(["node", "python", "python3", "npx", "tsc", "deno", "bun", "ruby", "perl", "go", "cargo", "rustc", "java", "gcc", "clang", "make", "npm", "pnpm", "yarn", "pip", "pip3", "docker", "kubectl", "php", "lua"]);
const VERSION_FLAG = /^(-v|--version|-V|version)$/;

/** Read-only subcommands; each entry may name option patterns that make it write. */
const READ_ONLY_SUBCOMMANDS: Record<string, Record<string, RegExp | null>> = {
  npm: { ls: null, list: null, view: null, info: null, outdated: null, explain: null, why: null, help: null, search: null, config: null, root: null, prefix: null, bin: null, audit: /^fix$/ },
  pnpm: { ls: null, list: null, outdated: null, why: null, view: null, info: null, root: null, audit: /^--fix/ },
  yarn: { list: null, info: null, why: null, outdated: null },
  pip: { list: null, show: null, freeze: null, check: null, config: null, search: null, index: null },
  pip3: { list: null, show: null, freeze: null, check: null, config: null },
  cargo: { tree: null, metadata: null, search: null },
  go: { list: null, env: /^-(w|u)$/, version: null, doc: null },
  docker: { ps: null, images: null, inspect: null, logs: null, version: null, info: null },
  kubectl: { get: null, describe: null, logs: null, version: null, explain: null, "api-resources": null, top: null },
};
/** Subcommands whose own first operand picks a read (npm config get / pip config list). */
const CONFIG_READS = new Set(["get", "list", "ls", "debug"]);

const GIT_READS = new Set(["status", "log", "diff", "show", "blame", "annotate", "ls-files", "ls-tree", "ls-remote", "rev-parse", "rev-list", "describe", "shortlog", "grep", "cat-file", "whatchanged", "show-ref", "for-each-ref", "merge-base", "name-rev", "count-objects", "var", "check-ignore", "check-attr", "cherry", "range-diff", "version", "help", "branch", "tag", "remote", "config", "reflog", "stash", "worktree", "submodule"]);
const GIT_OUTPUT = /^(--output(=.*)?|-O.*|--open-files-in-pager.*|--ext-diff|--textconv)$/;

function gitReadOnly(args: string[]): boolean {
  let k = 0;
  for (let a = args[k]; a?.startsWith("-"); a = args[k]) {
    if (a === "-c" || a === "--config-env" || a.startsWith("--exec-path") || a === "--paginate" || a === "-p") return false;
    k += ["-C", "--git-dir", "--work-tree", "--namespace"].includes(a) ? 2 : 1;
  }
  const sub = args[k];
  const rest = args.slice(k + 1);
  if (sub === undefined || !GIT_READS.has(sub)) return false;
  if (rest.some((a) => GIT_OUTPUT.test(a))) return false;
  const operands = rest.filter((a) => !a.startsWith("-"));
  const flags = rest.filter((a) => a.startsWith("-"));
  switch (sub) {
    case "branch":
      return !flags.some((f) => /^(-[dDmMcCuf]+|--(delete|move|copy|force|set-upstream.*|unset-upstream|edit-description|track.*|no-track|create-reflog))$/.test(f)) && (operands.length === 0 || flags.some((f) => /^(-l|--list|--contains|--no-contains|--merged|--no-merged|--points-at|--format.*|--sort.*)$/.test(f)));
    case "tag":
      return (operands.length === 0 || flags.some((f) => /^(-l|--list|--contains|--no-contains|--merged|--no-merged|--points-at|-n\d*|--format.*|--sort.*|-v|--verify)$/.test(f))) && !flags.some((f) => /^(-[adsfmuFe]+|--(delete|annotate|sign|force|message.*|file.*|local-user.*|edit))$/.test(f) && !/^-n\d*$/.test(f));
    case "remote":
      return operands.length === 0 || ["show", "get-url"].includes(operands[0] ?? "");
    case "config":
      if (flags.some((f) => /^(--(add|unset.*|replace-all|rename-section|remove-section|edit|get-urlmatch)|-e)$/.test(f))) return false;
      if (flags.some((f) => /^(--get.*|-l|--list)$/.test(f))) return true;
      return operands.length === 1 || (operands[0] === "get" && operands.length === 2) || operands[0] === "list";
    case "reflog":
      return operands.length === 0 || operands[0] === "show" || (operands.length === 1 && !["expire", "delete", "exists"].includes(operands[0] ?? "expire"));
    case "stash":
      return operands[0] === "list" || operands[0] === "show";
    case "worktree":
      return operands[0] === "list";
    case "submodule":
      return operands[0] === "status" || operands[0] === "summary";
    default:
      return true;
  }
}

function awkReadOnly(args: string[]): boolean {
  const awk = parseAwk(args);
  if (awk.loadsCode.length > 0 || awk.inplace || args.some((a) => a.startsWith("--exec"))) return false;
  return !awk.programs.some((prog) => /system\s*\(|[>|]|getline|close\s*\(|fflush/.test(prog));
}

function sedReadOnly(args: string[]): boolean {
  const sed = parseSed(args);
  if (sed.inPlace || sed.scriptFiles.length > 0) return false;
  return !sed.scripts.some((text) => {
    const effects = sedEffects(text);
    return effects.runs || effects.writes.some((f) => f !== "/dev/stdout" && f !== "/dev/stderr");
  });
}

/** Does this one simple command only look at things? (Its redirections are checked separately.) */
export function readOnlyCommand(cmd: SimpleCommand): boolean {
  const { program: p, args } = cmd;
  if (p === "") return true; // assignments and redirections only (redirections are checked by the caller)
  if (cmd.wrappers.some((w) => /^(sudo|doas|pkexec|su|runuser|eval|xargs|find -exec|chroot|unshare|nsenter|systemd-run|strace|ltrace|ssh|watch|flock)/.test(w))) {
    if (!(cmd.wrappers.includes("xargs") && ["grep", "wc", "cat", "head", "tail", "ls", "file", "stat", "md5sum", "sha256sum"].includes(p) && !cmd.wrappers.some((w) => w !== "xargs"))) return false;
  }
  // Options that load code into a "reader" (a plugin .so, a kubeconfig exec plugin, an rc file, a
  // toolexec wrapper, another crate's build script) make it anything but read-only.
  if (args.some((a) => /^--?(plugin|kubeconfig|rcfile|init-file|manifest-path|toolexec|exec)(=|$)/.test(a))) return false;
  if (p === "ldd") return false; // ldd may run the program it inspects
  const operands = args.filter((a) => !a.startsWith("-"));
  if (VERSION_ONLY.has(p) && args.length === 1 && VERSION_FLAG.test(args[0] ?? "")) return true;
  if (SHELLS.has(p)) return args.some((a) => /^-[A-Za-z]*c[A-Za-z]*$/.test(a)) && !cmd.redirects.some((r) => r.heredoc !== undefined);
  switch (p) {
    case "git":
      return gitReadOnly(args);
    case "find":
      return !args.some((a) => /^-(delete|exec|execdir|ok|okdir|fprint0?|fprintf|fls)$/.test(a));
    case "fd":
    case "fdfind":
      return !args.some((a) => /^(-x|-X|--exec|--exec-batch)/.test(a));
    case "rg":
      return !args.some((a) => /^--pre(=|$)|^--pre-glob/.test(a));
    case "sort":
      return !args.some((a) => /^(-o|--output|--compress-program|-[a-zA-Z]*o)/.test(a));
    case "uniq":
      return operands.length <= 1;
    case "tree":
      return !args.some((a) => /^(-o|-R|-H)|^-[a-zA-Z]*[oRH]/.test(a));
    case "xxd":
      return !args.some((a) => /^-[a-zA-Z]*r/.test(a) || a === "-revert") && operands.length <= 1;
    case "yq":
      return !args.some((a) => /^(-i|--inplace|-[a-zA-Z]*i)$/.test(a) || a.startsWith("--inplace") || a.startsWith("--split-exp"));
    case "sed":
      return sedReadOnly(args);
    case "date":
      return !args.some((a) => /^(-s|--set|-[a-zA-Z]*s)/.test(a)) && operands.every((o) => o.startsWith("+"));
    case "hostname":
      return operands.length === 0 && !args.some((a) => /^(-F|--file|-b|--boot)/.test(a));
    case "file":
      return !args.some((a) => /^-[a-zA-Z]*C|^--compile/.test(a));
    case "env":
    case "printenv":
      return operands.length === 0 || p === "printenv";
    case "top":
      return true;
    case "less":
    case "more":
      return !args.some((a) => /^(-[a-zA-Z]*[oO]|--log-file|--LOG-FILE|-k|--lesskey-file)/.test(a));
    case "diff":
      return !args.some((a) => /^--output/.test(a));
    case "lsof":
    case "ps":
      return true;
    default:
      break;
  }
  if (AWKS.has(p)) return awkReadOnly(args);
  const table = READ_ONLY_SUBCOMMANDS[p];
  if (table) {
    const sub = operands[0];
    if (sub === undefined || !(sub in table)) return false;
    const writing = table[sub];
    if (writing && args.some((a) => writing.test(a))) return false;
    if (sub === "config") return CONFIG_READS.has(operands[1] ?? "");
    return true;
  }
  return READ_ONLY_PROGRAMS.has(p);
}

const SAFE_WRITE_TARGET = /^(\/dev\/null|\/dev\/stdout|\/dev\/stderr|&?[12])$/;

/** Plan mode: every command of the line (nested ones included) is read-only and writes no file. */
export function planModeAllows(command: string): boolean {
  let commands: SimpleCommand[];
  try {
    commands = parseShell(command);
  } catch {
    // expected: a command line the parser cannot read is not known read-only, so it is asked about
    return false;
  }
  return commands.length > 0 && commands.every((simple) => {
    if (simple.unresolved.length > 0) return false;
    if (simple.redirects.some((r) => /^(>|>>|>\||&>|&>>|<>)$/.test(r.op) && !SAFE_WRITE_TARGET.test(r.target))) return false;
    if (simple.redirects.some((r) => r.op === ">&" && !/^(\d+|-)$/.test(r.target))) return false;
    return readOnlyCommand(simple);
  });
}
