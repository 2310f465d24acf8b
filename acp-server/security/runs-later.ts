// Files that something runs LATER, outside any sandbox: Hermes at its next start, the user's
// git on the next `git status` / `git commit`, the editor when the folder opens or a task runs.
// A file tool that changes one plants code for later; the permission policy asks for each such
// change by name (never in dont_ask or plan mode, never remembered). One classifier, so the
// policy, its card and the docs name the same list.
//
// Fails closed: a name is compared case-insensitively and without trailing dots or spaces (what
// a case-insensitive or Windows file system treats as the same name), and each path is checked
// as written and through its symlinks (resolved at each check: a link made a moment ago counts).
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { isInside } from "../util/inside-folder";
import { realPath } from "./sensitive-paths";
import { inHermesWorktrees } from "./hermes-worktrees";
import { isDirectory, isRegularFile } from "../util/path-kind";

export type RunsLaterKind = "hermes-state" | "git" | "editor";

export interface RunsLater {
  kind: RunsLaterKind;
  /** Why it is special, for the permission card and the refusal (one clause). */
  why: string;
}

/**
 * Editor and shell settings that start programs when a folder opens or a task runs. Chosen as
 * equivalent to a git hook: each names a command that runs without the user typing it.
 * - `.vscode/tasks.json` (`runOn: folderOpen`), `launch.json` (preLaunchTask, program),
 *   `settings.json` (terminal profiles, linters' and formatters' executable paths), and a
 *   `*.code-workspace` file (settings, tasks and launch in one);
 * - `.zed/tasks.json` and `.zed/settings.json` (language servers' binaries, tasks);
 * - `.idea/` and `.run/` (JetBrains run configurations, external tools, startup tasks);
 * - `.devcontainer/` and `.devcontainer.json` (postCreateCommand, initializeCommand runs on the host);
 * - `.envrc` (direnv), `.mise.toml` / `mise.toml` (mise hooks and env sources): run on `cd`;
 * - `.husky/`: the usual `core.hooksPath`, so its files are git hooks;
 * - other agents' settings that start programs: MCP servers (`.mcp.json`, `.vscode/mcp.json`,
 *   `.cursor/mcp.json`, `.gemini/settings.json`) and Claude Code's hooks (`.claude/settings*.json`),
 *   run by a delegated agent or your own next session, outside Hermes's sandbox;
 * - Hermes's own project hooks (`.hermes/hooks.json|yaml|yml`): commands the user's next session
 *   runs outside the sandbox once the file is trusted.
 */
const EDITOR_FILES: ReadonlyArray<{ folder?: string; name?: string; suffix?: string }> = [
  { folder: ".vscode", name: "tasks.json" },
  { folder: ".vscode", name: "launch.json" },
  { folder: ".vscode", name: "settings.json" },
  { suffix: ".code-workspace" },
  { folder: ".zed", name: "tasks.json" },
  { folder: ".zed", name: "settings.json" },
  { folder: ".idea" },
  { folder: ".run" },
  { folder: ".devcontainer" },
  { name: ".devcontainer.json" },
  { name: ".envrc" },
  { name: ".mise.toml" },
  { name: "mise.toml" },
  { folder: ".husky" },
  { folder: ".vscode", name: "mcp.json" },
  { folder: ".cursor", name: "mcp.json" },
  { name: ".mcp.json" },
  { folder: ".gemini", name: "settings.json" },
  { folder: ".claude", name: "settings.json" },
  { folder: ".claude", name: "settings.local.json" },
  { folder: ".hermes", name: "hooks.json" },
  { folder: ".hermes", name: "hooks.yaml" },
  { folder: ".hermes", name: "hooks.yml" },
];

/** What runs `target` later, or undefined when nothing does (as far as this list knows). */
export function runsLater(target: string, hermesHome: string): RunsLater | undefined {
  const spellings = [...new Set([path.resolve(target), realPath(target)])];
  const home = [path.resolve(hermesHome), realPath(hermesHome)];
  // A session worktree is the user's code, not Hermes's state (links out of it are checked).
  if (!inHermesWorktrees(target, hermesHome, realPath) && spellings.some((spelling) => home.some((root) => isInside(root, spelling)))) {
    return { kind: "hermes-state", why: "Hermes's own state (what Hermes reads and runs at its next start)" };
  }
  for (const spelling of spellings) {
    const git = gitReason(spelling);
    if (git) return { kind: "git", why: git };
  }
  for (const spelling of spellings) {
    const editor = editorReason(spelling);
    if (editor) return { kind: "editor", why: editor };
  }
  // A hard link has other names, and no cheap way to find them: one may be .git/config
  // (`ln .git/config notes.txt` by a command outside the sandbox). Fails closed.
  if (linkCount(spellings.at(-1) ?? target) > 1) return { kind: "git", why: "a file with more than one hard link: another name of it may be a hook or git's config" };
  return undefined;
}

function linkCount(target: string): number {
  try {
    const info = statSync(target);
    return info.isFile() ? info.nlink : 1;
  } catch {
    // expected: a file that does not exist yet has no other names
    return 1;
  }
}

/** A name as a case-insensitive, Windows-tolerant file system sees it: `.GIT.` is `.git`. */
export function canonicalName(name: string): string {
  return name.toLowerCase().replace(/[. ]+$/, (tail) => (tail.length === name.length ? tail : ""));
}

function gitReason(absolute: string): string | undefined {
  const parts = absolute.split(path.sep).filter(Boolean);
  const at = parts.findIndex((part) => canonicalName(part) === ".git");
  if (at >= 0) {
    const inside = parts.slice(at + 1).join("/");
    const what = inside === "" ? "a `.git` (a repository or a gitfile pointing at one)" : `a file git reads from its repository folder (.git/${inside})`;
    return `${what}: git runs hooks and the programs its config names on your next git command`;
  }
  // A bare repository's shape (HEAD beside objects/ or commondir) is a git folder whatever its
  // name: .git/modules/<name>, a worktree's gitdir, `git init --bare sub`. Checked for each
  // folder above, counting the part this very write would create.
  for (let index = parts.length - 1; index >= 1; index--) {
    const dir = `${path.sep}${parts.slice(0, index).join(path.sep)}`;
    const next = canonicalName(parts[index] ?? "");
    const head = next === "head" || isRegularFile(path.join(dir, "HEAD"));
    const store = next === "objects" || next === "commondir" || isDirectory(path.join(dir, "objects")) || isRegularFile(path.join(dir, "commondir"));
    if (head && store) return `a file in a git repository folder (${dir}): git runs hooks and the programs its config names`;
  }
  // Hooks kept in the work tree: the folder the enclosing repository's core.hooksPath names.
  for (let index = parts.length - 1; index >= 0; index--) {
    const dir = `${path.sep}${parts.slice(0, index).join(path.sep)}`;
    if (!isDirectory(path.join(dir, ".git"))) continue;
    const hooks = hooksPathOf(dir);
    if (hooks && isInside(hooks, absolute)) return `a git hook (core.hooksPath of ${dir} is ${hooks}): git runs it on your next commit`;
    break;
  }
  return undefined;
}

/** The repository's own `core.hooksPath`, read as text (nothing run), resolved against its work tree. */
function hooksPathOf(workTree: string): string | undefined {
  try {
    const value = /^\s*hookspath\s*=\s*"?([^"\n]+?)"?\s*$/im.exec(readFileSync(path.join(workTree, ".git", "config"), "utf8"))?.[1];
    if (!value || value.startsWith("~")) return undefined;
    return path.resolve(workTree, value);
  } catch {
    // expected: no readable config: no hooks folder named
    return undefined;
  }
}

function editorReason(absolute: string): string | undefined {
  const parts = absolute.split(path.sep).filter(Boolean).map(canonicalName);
  const name = parts.at(-1) ?? "";
  for (const entry of EDITOR_FILES) {
    if (entry.suffix && name.endsWith(entry.suffix) && name.length > entry.suffix.length) return `an editor workspace file (${name}) that names tasks and programs the editor runs`;
    if (entry.folder) {
      const at = parts.lastIndexOf(entry.folder);
      if (at < 0 || at === parts.length - 1) continue;
      if (entry.name === undefined || (at === parts.length - 2 && name === entry.name)) return `an editor or tool setting (${entry.folder}/${parts.slice(at + 1).join("/")}) that starts programs when the folder opens or a task runs`;
      continue;
    }
    if (entry.name && name === entry.name) return `a setting (${entry.name}) that starts programs when the folder is opened or entered`;
  }
  return undefined;
}

