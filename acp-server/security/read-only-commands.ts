// Plan mode runs only commands that look at things: an allow-list of programs (and of git /
// package-manager subcommands) with no output redirected into files. Anything else is refused.
import { parseShell } from "./shell-parse";

const READ_ONLY_PROGRAMS = new Set([
  "ls", "ll", "la", "cat", "head", "tail", "less", "more", "wc", "grep", "egrep", "fgrep", "rg", "ag", "find", "fd",
  "tree", "pwd", "echo", "printf", "which", "whereis", "type", "file", "stat", "du", "df", "diff", "cmp", "sort",
  "uniq", "cut", "tr", "awk", "jq", "yq", "basename", "dirname", "realpath", "readlink", "date", "env", "printenv",
  "whoami", "id", "uname", "hostname", "ps", "top", "true", "false", "test", "[", "md5sum", "sha256sum", "shasum",
  "node", "python", "python3", "tsc", "npx", "cloc", "nl", "column", "xxd", "od", "strings",
]);

/** Runtimes allowed only to print their version (they could run anything otherwise). */
const VERSION_ONLY = new Set(["node", "python", "python3", "npx", "tsc"]);

const READ_ONLY_SUBCOMMANDS: Record<string, Set<string>> = {
  git: new Set(["status", "log", "diff", "show", "blame", "ls-files", "ls-tree", "rev-parse", "describe", "shortlog", "grep", "remote", "branch", "tag", "config", "reflog", "cat-file", "whatchanged"]),
  npm: new Set(["ls", "list", "view", "info", "outdated", "explain", "why", "help", "config"]),
  pnpm: new Set(["ls", "list", "outdated", "why", "view", "info"]),
  yarn: new Set(["list", "info", "why", "outdated"]),
  cargo: new Set(["tree", "metadata", "search"]),
  go: new Set(["list", "env", "version", "doc"]),
  docker: new Set(["ps", "images", "inspect", "logs", "version", "info"]),
};

/** Flags that make an otherwise read-only command change something. */
const WRITING_FLAGS: Record<string, RegExp> = {
  find: /^-(delete|exec|execdir|ok|fprint.*)$/,
  git: /^(-d|-D|--delete|-m|-M|--move|-c|-C|--copy|--add|--unset.*|--replace-all|--set-upstream-to|-u)$/,
  sort: /^(-o|--output.*)$/,
};

export function planModeAllows(command: string): boolean {
  let commands;
  try {
    commands = parseShell(command);
  } catch {
    return false;
  }
  return commands.length > 0 && commands.every((simple) => {
    if (simple.wrappers.some((wrapper) => /sudo|doas|eval|xargs/.test(wrapper))) return false;
    if (simple.redirects.some((r) => /^(>|>>|>\||&>|&>>|<>)$/.test(r.op) && r.target !== "/dev/null")) return false;
    const { program, args } = simple;
    if (program === "") return true;
    if (WRITING_FLAGS[program] && args.some((arg) => WRITING_FLAGS[program].test(arg))) return false;
    const subcommands = READ_ONLY_SUBCOMMANDS[program];
    if (subcommands) return subcommands.has(args.find((arg) => !arg.startsWith("-")) ?? "");
    if (VERSION_ONLY.has(program)) return args.length === 1 && /^(-v|--version|-V)$/.test(args[0]);
    return READ_ONLY_PROGRAMS.has(program);
  });
}
