// Command-screen rules for operations that destroy work or open the machine without touching
// a protected path: git commands that discard changes or rewrite history, truncating files,
// reverse shells, deleting cloud and cluster resources, publishing packages, and system
// administration (firewall, users, mounts, package removal). All ask; none is hardline.
import type { SimpleCommand } from "./shell-parse";
import { firstSubcommand, shortFlags, type Screen } from "./screen-rule";
import { programEntry } from "./programs/registry";
import { NETCATS, subcommandValueOptions, valueOptionsOf } from "./programs/tables";


/** git commands that throw away uncommitted work, stashes, refs or history (beyond screen-git.ts). */
export function checkGitDiscard(s: Screen, args: string[]): void {
  const { sub, rest } = firstSubcommand(args, valueOptionsOf("git"));
  const { short, long, operands } = shortFlags(rest);
  const discard = (what: string) => s.add("dangerous", "git-discard", `git ${sub} ${what}`);
  switch (sub) {
    case "checkout":
      // `-B name start`: resets an existing branch to start, dropping its commits.
      if (short.includes("B")) s.add("dangerous", "git-branch-force", "git checkout -B resets an existing branch, losing the commits it pointed to");
      if (short.includes("f") || long.includes("--force") || rest.includes("--") || operands.includes(".")) discard("overwrites uncommitted changes in the working tree");
      break;
    case "restore":
      if (!(long.includes("--staged") && !long.includes("--worktree") && !short.includes("W"))) discard("overwrites uncommitted changes with another version");
      break;
    case "switch":
      if (short.includes("C") || long.includes("--force-create")) s.add("dangerous", "git-branch-force", "git switch -C resets an existing branch, losing the commits it pointed to");
      if (short.includes("f") || long.includes("--discard-changes") || long.includes("--force")) discard("throws away uncommitted changes");
      break;
    case "stash":
      if (operands[0] === "drop" || operands[0] === "clear") s.add("dangerous", "git-stash-drop", `git stash ${operands[0]} deletes stashed work`);
      break;
    case "reflog":
      if (operands[0] === "expire" || operands[0] === "delete") s.add("dangerous", "git-history-rewrite", "git reflog expire/delete removes the record that lets lost commits be recovered");
      break;
    case "gc":
    case "prune":
      if (sub === "prune" || long.some((l) => l.startsWith("--prune"))) s.add("dangerous", "git-history-rewrite", `git ${sub} permanently deletes unreachable commits`);
      break;
    case "filter-branch":
    case "filter-repo":
      s.add("dangerous", "git-history-rewrite", `git ${sub} rewrites the repository's whole history`);
      break;
    case "update-ref":
      if (short.includes("d") || long.includes("--delete")) s.add("dangerous", "git-ref-delete", "git update-ref -d deletes a branch or ref directly");
      break;
    case "branch":
      if (short.includes("f") || short.includes("M") || short.includes("C") || long.includes("--force")) s.add("dangerous", "git-branch-force", "git branch -f/-M moves or overwrites a branch, losing the commits it pointed to");
      break;
    case "tag":
      if (short.includes("d") || long.includes("--delete")) s.add("dangerous", "git-tag-delete", "git tag -d deletes a tag");
      break;
    case "worktree":
      if (operands[0] === "remove" && (short.includes("f") || long.includes("--force"))) s.add("dangerous", "git-discard", "git worktree remove --force deletes a worktree with its uncommitted changes");
      break;
    default:
      break;
  }
}

/** `> file`, `: > file`, `cp /dev/null file`, `truncate -s 0`: the file's content is gone. */
export function checkTruncation(s: Screen, cmd: SimpleCommand): void {
  const { program: p, args } = cmd;
  const emptying = p === "" || p === ":" || p === "true" || (p === "cat" && args[0] === "/dev/null" && args.length === 1);
  if (emptying) {
    for (const r of cmd.redirects) if ((r.op === ">" || r.op === ">|") && r.target !== "/dev/null" && !/^\/dev\/(stdout|stderr)$/.test(r.target)) s.add("dangerous", "truncate-file", `\`${cmd.raw.trim()}\` empties ${r.target}`);
  }
  if (p === "cp" && args.filter((a) => !a.startsWith("-"))[0] === "/dev/null") s.add("dangerous", "truncate-file", `cp /dev/null empties ${args[args.length - 1]}`);
  // Any size that shrinks (`-s0`, `--size 0`, `-s -100`, `-s <50K`, `-s /2`) throws data away.
  const shrinks = (v: string | undefined) => v !== undefined && /^(0+[KMGTPEZY]?i?B?|[-<%/].*)$/i.test(v);
  if (p === "truncate" && args.some((a, i) => (/^(-s|--size)$/.test(a) && shrinks(args[i + 1])) || (/^-s./.test(a) && shrinks(a.slice(2))) || (a.startsWith("--size=") && shrinks(a.slice(7))))) {
    s.add("dangerous", "truncate-file", "truncate shrinks or empties the files it is given");
  }
}

/** A shell or connection handed to the network: `bash -i >& /dev/tcp/…`, `nc -e`, `socat exec:`. */
export function checkReverseShell(s: Screen, cmd: SimpleCommand): void {
  const { program: p, args } = cmd;
  if (cmd.redirects.some((r) => /^\/dev\/(tcp|udp)\//.test(r.target)) || args.some((a) => /^\/dev\/(tcp|udp)\//.test(a))) {
    s.add("dangerous", "reverse-shell", "connects the shell's input or output to a network socket (/dev/tcp), a remote shell");
  }
  if (NETCATS.has(p) && args.some((a) => /^-[a-zA-Z]*[ec]$|^--(exec|sh-exec|lua-exec)/.test(a))) {
    s.add("dangerous", "reverse-shell", `${p} -e hands a program to whoever connects: a remote shell`);
  }
  if (p === "socat" && args.some((a) => /^(exec|system):/i.test(a))) s.add("dangerous", "reverse-shell", "socat exec: runs a program for a network peer: a remote shell");
}

export function checkOperations(s: Screen, cmd: SimpleCommand): void {
  const { program: p, args } = cmd;
  const line = args.join(" ");
  const entry = programEntry(p);
  for (const [sub, what] of entry?.destroys ?? []) if (sub.test(line)) s.add("dangerous", "infra-delete", `${p} ${args.slice(0, 2).join(" ")} ${what}`);
  if (entry?.admin !== undefined) {
    const pattern = entry.admin;
    if (!pattern || args.some((a) => pattern.test(a)) || pattern.test(line)) s.add("dangerous", "system-admin", `${p} changes the system's ${/tables|nft|ufw/.test(p) ? "firewall" : /mount|swap/.test(p) ? "mounts" : "users, permissions or settings"}`);
  }
  const removal = entry?.removesPackages;
  if (removal && args.some((a) => removal.test(a))) s.add("dangerous", "package-remove", `${p} removes installed system packages`);
  if (p === "tar" && args.some((a) => /^-[A-Za-z]*P|^--absolute-names$/.test(a)) && args.some((a) => /^-[A-Za-z]*x|^--extract$|^--get$/.test(a))) s.add("dangerous", "tar-absolute", "tar -P extracts absolute paths, so the archive can write anywhere on the machine");
  if (p === "curl" && args.some((a, i) => /^-X ?DELETE$|^--request=DELETE$/i.test(a) || ((a === "-X" || a === "--request") && /^DELETE$/i.test(args[i + 1] ?? "")))) s.add("dangerous", "http-delete", "curl sends an HTTP DELETE request");
  if (p === "less") {
    args.forEach((a, i) => {
      const file = a === "-o" || a === "-O" ? args[i + 1] : /^-[oO]./.test(a) ? a.slice(2) : /^--(log-file|LOG-FILE)=/.test(a) ? a.slice(a.indexOf("=") + 1) : undefined;
      if (file !== undefined) s.write(file, "less -o");
    });
  }
  if ((p === "docker" || p === "podman" || p === "kubectl") && args.includes("exec")) {
    const inner = p === "kubectl" ? args.slice(args.indexOf("--") + 1) : containerCommand(p, args.slice(args.indexOf("exec") + 1));
    if (inner.length > 0 && (p !== "kubectl" || args.includes("--"))) s.nested(inner.map((w) => (/^[\w./=:@%+,-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`)).join(" "), `${p} exec`);
  }
  if ((p === "npm" || p === "pnpm" || p === "yarn") && /^(uninstall|remove|rm|un)$/.test(args[0] ?? "") && args.some((a) => a === "-g" || a === "--global")) s.add("dangerous", "package-remove", `${p} removes a globally installed package`);
}

/** The command of `docker exec [options] CONTAINER CMD...`. */
function containerCommand(program: string, args: string[]): string[] {
  const withValue = subcommandValueOptions(program, "exec");
  let k = 0;
  for (let a = args[k]; a?.startsWith("-"); a = args[k]) k += withValue.has(a) ? 2 : 1;
  return args.slice(k + 1);
}
