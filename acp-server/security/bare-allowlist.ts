// Where no sandbox applies (none on this machine, terminal.sandbox: off, or an editor's bare
// terminals the user chose), a command runs without asking only if it is on the read-only
// allowlist (the one plan mode uses) AND every word it could read as a path stays inside the
// workspace and out of $HERMES_HOME. Read-only is not harmless without walls: `cat` of Hermes's
// config.yaml (its API key) or of another project's files puts them in the model's context.
// Deliberately strict: any operand, option value or redirection is taken for a path, resolved
// through symlinks; one that leaves the workspace, or cannot be resolved (a `$VAR`), means ask.
// Only programs that read no files at all (echo, pwd, date…) are spared.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { isInside } from "../util/inside-folder";
import { DECLARERS, NO_FILE_OPERANDS, PRINTS_ENVIRONMENT as ENV_PRINTERS } from "./programs/tables";
import { planModeAllows } from "./read-only-commands";
import { resolvePath } from "./screen-paths";
import { insideWorkspace, realPath, type Workspace } from "./sensitive-paths";
import { parseShell } from "./shell-parse";

export interface BareScope {
  /** Where the command runs. */
  cwd: string;
  workspace: Workspace;
  home: string;
  hermesHome: string;
}

/** Runs unasked with nothing around it: read-only, and it names nothing outside the workspace. */
export function bareCommandAllowed(command: string, scope: BareScope): boolean {
  if (!planModeAllows(command)) return false;
  let commands;
  try {
    commands = parseShell(command);
  } catch {
    // expected: planModeAllows parsed it already; a line that fails now is not known read-only
    return false;
  }
  return commands.every((simple) => {
    if (printsEnvironment(simple.program) || simple.wrappers.some((wrapper) => wrapper.startsWith("xargs"))) return false;
    if (simple.args.some((arg) => (simple.program === "tree" ? TREE_FOLLOWS_LINKS : FOLLOWS_LINKS).test(arg))) return false;
    if (NO_FILE_OPERANDS.has(simple.program) && simple.redirects.length === 0 && !simple.chdir) return true;
    const words = [...simple.args.map(optionValue), ...simple.redirects.filter((r) => !/^(&?\d+|-|\/dev\/null)$/.test(r.target) && r.heredoc === undefined && r.op !== "<<<").map((r) => r.target)];
    if (simple.chdir) return false;
    return words.every((word) => word === "" || staysInside(word, scope));
  });
}

/**
 * Print the environment: an editor's terminal has the editor's, tokens included (Hermes's own
 * commands get a cleaned one). `xargs` takes its operands from input nobody has seen.
 */
/** Declarers print every variable when called bare (`export`, `declare -p`): counted with the registry's environment printers. */
const printsEnvironment = (program: string): boolean => ENV_PRINTERS.has(program) || DECLARERS.has(program) || program === "compgen";
/** Options that follow symlinks while walking a tree (grep -R, find -L, rg --follow, du -L): out of the workspace. */
const FOLLOWS_LINKS = /^(-[A-Za-z]*[RL][A-Za-z]*|-follow|--follow|--dereference-recursive|--dereference)$/;
const GLOB = /[*?[]/;
/** A path segment that starts with a dot and holds a glob character. */
const DOT_PATTERN = /(^|\/)\.[^/]*[*?[]/;
/** tree's -L is a depth; its -l follows links. */
const TREE_FOLLOWS_LINKS = /^(-[A-Za-z]*l[A-Za-z]*)$/;

/** `--file=x` → x; `-n` → "" (a flag names no path); anything else is taken as a path. */
function optionValue(arg: string): string {
  if (!arg.startsWith("-")) return arg;
  const eq = arg.indexOf("=");
  return eq === -1 ? "" : arg.slice(eq + 1);
}

function staysInside(word: string, scope: BareScope): boolean {
  // A variable may expand to any path. After a prefix with no slash, dot or tilde and in a word
  // with no slash (an awk program's `$1`, `x$y`), it can only name something in the folder
  // itself; `..$HOME` would climb out.
  // A pattern for dot-names (`.*`, `src/.?*`) also matches `..` in many shells: the parent folder.
  if (DOT_PATTERN.test(word)) return false;
  const expansion = word.search(/[$`]/);
  if (expansion !== -1 && (/[./~]/.test(word.slice(0, expansion)) || expansion === 0 || word.includes("/"))) return false;
  const resolved = resolvePath(word, scope.cwd, scope.home, scope.hermesHome);
  const hermes = path.resolve(scope.hermesHome);
  if (isInside(hermes, resolved) || isInside(realPath(hermes), realPath(resolved))) return false;
  if (!insideWorkspace(scope.workspace, resolved)) return false;
  return GLOB.test(word) ? globStaysInside(resolved, scope) : !hardLinked(resolved);
}

/**
 * A pattern stands for whatever it matches, links included (`cat *` reads through a link to
 * ~/.bashrc). Only a pattern in the last segment is judged, by every entry of its folder: each
 * must resolve inside the workspace and have one name. A pattern in a folder part asks.
 */
function globStaysInside(resolved: string, scope: BareScope): boolean {
  const folder = path.dirname(resolved);
  if (GLOB.test(folder)) return false;
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    // expected: a folder that cannot be listed matches nothing the command could read
    return true;
  }
  return names.every((name) => {
    const entry = path.join(folder, name);
    return insideWorkspace(scope.workspace, entry) && !hardLinked(entry);
  });
}

/** A file with more than one name may be another name of something outside (`ln ~/.bashrc notes.txt`). */
function hardLinked(file: string): boolean {
  try {
    const info = statSync(file);
    return info.isFile() && info.nlink > 1;
  } catch {
    // expected: a missing file has no other names; reading it fails on its own
    return false;
  }
}
