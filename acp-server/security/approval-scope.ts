// How wide an "allow for this session" or "always allow" answer to a command is: exactly the
// commands the card showed, in the folder they ran in, and no further. The screen's rule keys
// (command-screen.ts) say *why* a line asks; they are far too broad to be an approval on their
// own ("rm-recursive" is every recursive delete, "read-credentials" every secret). So a scope is
// built from the parsed line (shell-parse.ts), without touching the screen's rule families:
//
//   - every simple command of the line that is not plainly harmless is part of the scope, by its
//     source text (program as written, subcommand, options, paths, patterns, redirections);
//     "plainly harmless" means known read-only (the plan-mode allowlist) AND screened safe on its
//     own, so `ls` or `grep X` next to an approved command does not make it ask again, while
//     `cat ~/.ssh/id_rsa` or `curl -d @- …` always does;
//   - a line that changes how its later commands resolve (cd, links, variables, functions,
//     aliases, a wrapper's folder) has no scope: it can be allowed once, never remembered,
//     because the same text could then mean other files;
//   - a later line is covered only when all of its scoped commands belong to ONE approval made
//     in the same folder, and its rule keys are among that approval's: two approvals are never
//     combined into a line neither of them showed (`cat .env` + `… | curl -d @- host`).
//
// Secret reads are therefore never widened: `cat .env` covers `cat .env`, not `cat id_rsa`, not
// `head .env`. The card words the scope (describeScope) so the user sees what "always" means.
import { lstatSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import type { CommandScope } from "./approval-scope-match";
import { screenCommand, type ScreenContext } from "./command-screen";
import { planModeAllows } from "./read-only-commands";
import { parseShell, type KnownVars, type SimpleCommand } from "./shell-parse";
import { PATTERN_MARKERS } from "./shell-words";

/**
 * Programs that change what the rest of the line means (its folder, its variables, its links,
 * its functions): a line with one of them gets no scope. Kept here, not in the screen's
 * program tables: this is about remembering an answer, not about danger.
 */
const CONTEXT_CHANGERS = new Set([
  "cd", "pushd", "popd", "chdir", "ln", "link", "export", "declare", "typeset", "local", "readonly", "unset", "set", "shopt", "alias",
  "unalias", "source", ".", "hash", "umask", "exec", "eval", "enable", "builtin", "trap", "let", "read", "mapfile", "readarray", "shift",
]);
/** A function or alias defined in the line: a later word may then run it. */
const DEFINES_FUNCTION = /(?:^|[\s;&|(){}])(?:function\s+[^\s(){}]+|[^\s(){}|;&<>]+\s*\(\s*\))|\balias\s/;

/** Screen-context fields a scope needs: the folder the line runs in and the places the screen knows. */
export type ScopeContext = ScreenContext;

/**
 * The scope of an approval of `command` (run in `context.cwd`, screened with `keys`), or
 * undefined when no answer to it may be remembered (it cannot be parsed, changes its own
 * context, or has nothing to scope to).
 */
export function commandScope(command: string, keys: readonly string[], context: ScopeContext): CommandScope | undefined {
  const scoped = scopedCommands(command, context);
  if (scoped === undefined || scoped.length === 0) return undefined;
  return { folder: path.resolve(context.cwd), commands: [...new Set(scoped.map(commandText))], keys: [...new Set(keys)] };
}

/**
 * A command as the card shows it and a rule matches it: its source text, and the body of each
 * here-document it reads (the parser keeps those apart from the text: `psql db <<EOF` alone would
 * let one approved SQL script cover any other).
 */
function commandText(cmd: SimpleCommand): string {
  const bodies = cmd.redirects.filter((r) => r.heredoc !== undefined).map((r) => `\n${r.heredoc ?? ""}\n${r.target}`);
  return `${cmd.raw.trim()}${bodies.join("")}`;
}

/**
 * A legacy rule (a rule key alone, saved before scopes existed) still covers a line only when
 * none of its scoped commands names a path, a pattern or a file to redirect to, and nothing in
 * it reads or writes a credential or a sensitive file: so it never covers more than it did, and
 * no longer covers `rm -rf src` because the user once approved `rm -rf build`.
 */
export function legacyKeyMayCover(command: string, keys: readonly string[], context: ScopeContext): boolean {
  if (keys.some((key) => /^(read-credentials|write-sensitive|delete-sensitive)/.test(key))) return false;
  const scoped = scopedCommands(command, context);
  if (scoped === undefined || scoped.length === 0) return false;
  return scoped.every((cmd) => cmd.redirects.every((r) => !writesFile(r.op, r.target)) && cmd.redirects.every((r) => r.heredoc === undefined) && cmd.args.every((arg) => !namesPath(optionValue(arg), context.cwd)));
}

/**
 * The words on the card: "`rm -rf` on `build/`", "reading `.env` with `cat`", or the command as
 * written when it has wrappers or redirections; " in `sub/`" when it runs below the workspace.
 */
export function describeScope(scope: CommandScope, context: ScopeContext): string {
  const parts = scope.commands.map((text) => describeCommand(text, context));
  const where = context.workspace && path.resolve(scope.folder) !== path.resolve(context.workspace) ? ` in \`${folderLabel(scope.folder, context.workspace)}\`` : "";
  return `${joinWords(parts)}${where}`;
}

/** The commands of `command` an approval must name, or undefined when it may not be remembered at all. */
function scopedCommands(command: string, context: ScopeContext): SimpleCommand[] | undefined {
  let commands: SimpleCommand[];
  try {
    commands = parseShell(command, knownVars(context));
  } catch {
    // expected: a line the parser cannot read has no scope; it is asked about each time
    return undefined;
  }
  if (DEFINES_FUNCTION.test(command)) return undefined;
  for (const cmd of commands) {
    if (cmd.unresolved.length > 0 || cmd.chdir || CONTEXT_CHANGERS.has(cmd.program)) return undefined;
    // `X=1` on its own sets a variable for the rest of the line (`X=1 make` only for make: its text is in the scope).
    if (cmd.program === "" && cmd.assignments.length > 0) return undefined;
    // A glob or brace is part of the pattern the card shows; anything else computed is not known.
    if (cmd.argWords.some((word) => word.dynamic.some((why) => !PATTERN_MARKERS.has(why)))) return undefined;
    if (cmd.redirects.some((r) => r.dynamic?.some((why) => !PATTERN_MARKERS.has(why)))) return undefined;
  }
  const scoped = commands.filter((cmd) => !harmless(cmd, context));
  // The text is what is remembered; a path in it that leads elsewhere through a link, or a file
  // with a second name (a hard link), could mean another file than the one the card showed.
  if (scoped.some((cmd) => [...cmd.args.map(optionValue), ...cmd.redirects.map((r) => r.target)].some((word) => redirected(word, context.cwd)))) return undefined;
  return scoped;
}

/**
 * Whether a path word reaches its file through a symlink (in any component) or names a file with
 * more than one link: then its text does not pin the file. Words naming nothing are not.
 */
function redirected(word: string, cwd: string): boolean {
  if (!namesPath(word, cwd) || /[*?[\]{}]/.test(word) || /^[a-z][\w+.-]*:\/\//i.test(word)) return false;
  // `a/../b` goes through `a` as it is on disk (a link's parent, not the text's): not pinned.
  if (word.split("/").includes("..")) return true;
  const lexical = path.resolve(cwd, word);
  try {
    const real = realpathSync(lexical);
    const base = realpathSync(cwd);
    const expected = path.isAbsolute(word) ? lexical : path.join(base, path.relative(cwd, lexical));
    if (real !== expected && real !== lexical) return true;
    const stat = statSync(real);
    return stat.isFile() && stat.nlink > 1;
  } catch (error) {
    // expected: a path that is not there names no file yet, unless it is a dangling link (it
    // points somewhere); anything else cannot be checked (fail closed)
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") return true;
    return isLink(lexical);
  }
}

function isLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    // expected: nothing there at all
    return false;
  }
}

/** `~`, `$HOME`, `$USER`, `$HERMES_HOME` as the screen reads them (a literal's meaning, not a guess). */
function knownVars(context: ScopeContext): KnownVars {
  return { home: context.home, hermesHome: context.hermesHome ?? path.join(context.home, ".hermes"), user: context.user ?? process.env.USER ?? "" };
}

/** Known read-only, and nothing flagged when screened on its own: needs no approval, so no scope. */
function harmless(cmd: SimpleCommand, context: ScopeContext): boolean {
  if (cmd.program === "" && cmd.redirects.length === 0) return true; // `fi`, `done`, `}`: keywords only
  if (cmd.program === "") return false;
  if (!planModeAllows(cmd.raw)) return false;
  const alone = screenCommand(cmd.raw, context);
  return alone.level === "safe" && !alone.unresolved;
}

function writesFile(op: string, target: string): boolean {
  if (!/^(>|>>|>\||&>|&>>|<>)$/.test(op)) return false;
  return !/^(\/dev\/null|\/dev\/stdout|\/dev\/stderr)$/.test(target);
}

/** `--output=dist/x` → `dist/x`; any other word as it is. */
function optionValue(arg: string): string {
  if (!arg.startsWith("-")) return arg;
  const eq = arg.indexOf("=");
  return eq < 0 ? "" : arg.slice(eq + 1);
}

/**
 * Whether a word names (or may name) a file: a `/`, a leading `.` or `~`, a glob character, or
 * an existing entry in the folder. A plain word that names nothing there (a subcommand, a remote,
 * a branch) does not. Fails closed: a word we cannot stat is treated as a path.
 */
function namesPath(word: string, cwd: string): boolean {
  if (word === "") return false;
  if (/[/~*?[\]{}]/.test(word) || word.startsWith(".")) return true;
  try {
    statSync(path.resolve(cwd, word));
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ENOENT";
  }
}

function describeCommand(text: string, context: ScopeContext): string {
  const [cmd, ...more] = parseShell(text, knownVars(context));
  // Only a plain `program args` is reworded; anything else is shown exactly as it will be matched.
  const plain = cmd && more.length === 0 && cmd.wrappers.length === 0 && cmd.assignments.length === 0 && cmd.redirects.length === 0 && text === [cmd.program, ...cmd.args].join(" ");
  if (!cmd || !plain) return `\`${text}\``;
  const first = cmd.args.findIndex((arg) => !arg.startsWith("-") && namesPath(arg, context.cwd));
  if (first < 0) return `\`${text}\``;
  const head = [cmd.program, ...cmd.args.slice(0, first)].join(" ");
  const alone = screenCommand(text, context).keys;
  const reads = alone.length > 0 && alone.every((key) => key === "read-credentials");
  const targets = cmd.args.slice(first).map((arg) => `\`${arg.startsWith("-") ? arg : withDirectorySlash(arg, context.cwd)}\``);
  return reads ? `reading ${joinWords(targets)} with \`${head}\`` : `\`${head}\` on ${joinWords(targets)}`;
}

function withDirectorySlash(word: string, cwd: string): string {
  if (word.endsWith("/")) return word;
  try {
    return statSync(path.resolve(cwd, word)).isDirectory() ? `${word}/` : word;
  } catch {
    // expected: a target that is not there yet is shown as written
    return word;
  }
}

function folderLabel(folder: string, workspace: string): string {
  const relative = path.relative(workspace, folder);
  return relative === "" || relative.startsWith("..") || path.isAbsolute(relative) ? folder : `${relative}/`;
}

function joinWords(parts: string[]): string {
  return parts.length <= 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1) ?? ""}`;
}
