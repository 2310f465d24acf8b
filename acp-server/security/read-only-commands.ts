// Plan mode is an allowlist: only commands known to be read-only run, with their arguments
// checked — an option or operand that writes (`sort -o`, `uniq IN OUT`, `tree -o`, `find
// -fprint`, `git diff --output`, `yq -i`, `sed -i`, an awk `>`), a git or package-manager
// subcommand that changes config or refs, `date -s`, `hostname NAME`, a redirection to a file
// other than /dev/null: all refused. The command screen's verdict comes on top (anything it
// cannot resolve is refused in plan mode by the permission policy).
import { parseAwk, parseSed, sedEffects } from "./awk-sed";
import { parseShell, type SimpleCommand } from "./shell-parse";
import type { ReadOnly } from "./programs/program-entry";
import { programEntry } from "./programs/registry";
import { HIDES_EFFECTS, SHELLS, VERSION_ONLY, XARGS_READERS, subcommandsWith, valueOptionsOf } from "./programs/tables";

const VERSION_FLAG = /^(-v|--version|-V|version)$/;
/** Subcommands whose own first operand picks a read (npm config get / pip config list). */
const CONFIG_READS = new Set(["get", "list", "ls", "debug"]);

const GIT_OUTPUT = /^(--output(=.*)?|-O.*|--open-files-in-pager.*|--ext-diff|--textconv)$/;

function gitReadOnly(args: string[]): boolean {
  let k = 0;
  for (let a = args[k]; a?.startsWith("-"); a = args[k]) {
    if (a === "-c" || a === "--config-env" || a.startsWith("--exec-path") || a === "--paginate" || a === "-p") return false;
    k += valueOptionsOf("git").has(a) ? 2 : 1;
  }
  const sub = args[k];
  const rest = args.slice(k + 1);
  if (sub === undefined || !subcommandsWith("git", "read").has(sub)) return false;
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

/** `sudo cat`, `ssh host cat`, `watch cat`: the wrapper, not the reader, decides what happens (xargs alone is fine for a few readers). */
function hiddenByWrapper(cmd: SimpleCommand): boolean {
  const hides = (w: string) => w === "find -exec" || HIDES_EFFECTS.has(w.split(" ")[0] ?? w);
  if (!cmd.wrappers.some(hides)) return false;
  return !(cmd.wrappers.includes("xargs") && XARGS_READERS.has(cmd.program) && !cmd.wrappers.some((w) => w !== "xargs"));
}

/** The registry's conditions on a reader (programs/program-entry.ts ReadOnly), read for one command. */
function meetsReadOnly(rule: ReadOnly, cmd: SimpleCommand, operands: string[]): boolean {
  if (rule === true) return true;
  const { args } = cmd;
  if (rule.unless && args.some((a) => rule.unless?.test(a))) return false;
  if (rule.maxOperands !== undefined && operands.length > rule.maxOperands) return false;
  if (rule.operands && !operands.every((o) => rule.operands?.test(o))) return false;
  switch (rule.by) {
    case "git-subcommand":
      return gitReadOnly(args);
    case "sed-script":
      return sedReadOnly(args);
    case "awk-program":
      return awkReadOnly(args);
    case "shell-command":
      return args.some((a) => /^-[A-Za-z]*c[A-Za-z]*$/.test(a)) && !cmd.redirects.some((r) => r.heredoc !== undefined);
    default:
      return true;
  }
}

/** Does this one simple command only look at things? (Its redirections are checked separately.) */
export function readOnlyCommand(cmd: SimpleCommand): boolean {
  const { program: p, args } = cmd;
  if (p === "") return true; // assignments and redirections only (redirections are checked by the caller)
  if (hiddenByWrapper(cmd)) return false;
  // Options that load code into a "reader" (a plugin .so, a kubeconfig exec plugin, an rc file, a
  // toolexec wrapper, another crate's build script) make it anything but read-only.
  if (args.some((a) => /^--?(plugin|kubeconfig|rcfile|init-file|manifest-path|toolexec|exec)(=|$)/.test(a))) return false;
  const operands = args.filter((a) => !a.startsWith("-"));
  if (VERSION_ONLY.has(p) && args.length === 1 && VERSION_FLAG.test(args[0] ?? "")) return true;
  // A shell runs only what its -c string says, and that string is screened as commands of its own.
  if (SHELLS.has(p)) return meetsReadOnly({ by: "shell-command" }, cmd, operands);
  const entry = programEntry(p);
  if (entry?.readOnly !== undefined) return meetsReadOnly(entry.readOnly, cmd, operands);
  const subcommands = entry?.subcommands;
  if (!subcommands) return false;
  const sub = operands[0];
  const known = sub === undefined ? undefined : subcommands[sub];
  if (!known?.effects.includes("read") || known.effects.length > 1) return false;
  if (known.writesWhen && args.some((a) => known.writesWhen?.test(a))) return false;
  if (sub === "config") return CONFIG_READS.has(operands[1] ?? "");
  return true;
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
