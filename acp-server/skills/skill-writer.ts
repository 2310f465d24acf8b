// What skill_manage changes, planned before anything is written (so the change can be shown,
// and asked about, as a diff) and then applied. Only project and user skills are written;
// bundled ones are read-only (a user skill of the same name overrides one). Every change
// is threat-scanned, bumps the skill's version and records its provenance.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isInside } from "../util/inside-folder";
import { archiveSkill } from "./archive";
import { findSkill, SKILL_FILE, type Skill, type SkillCatalog } from "./library";
import { parseSkillFile, SKILL_NAME, SkillFormatError, stampSkillFile, type ParsedSkillFile } from "./skill-file";
import { isReadOnlySource, PROJECT_WRITE_DIR, userSkillsDir } from "./sources";
import { keepSkillVersion } from "./versions";
import { scanSkillWrite } from "./write-scan";
import { AgentError } from "../util/agent-error";

export type ManageAction = "create" | "edit" | "patch" | "delete" | "write_file" | "remove_file";
export type WriteScope = "user" | "project";

/** Folders a skill's linked files live in. */
export const LINKED_FOLDERS = ["references", "templates", "scripts", "assets"] as const;

const MAX_SKILL_CHARS = 100_000;
const MAX_FILE_CHARS = 1_000_000;

export interface ManageRequest {
  action: ManageAction;
  name: string;
  content?: string;
  oldString?: string;
  newString?: string;
  filePath?: string;
  fileContent?: string;
  /** Where `create` puts the skill (default user). */
  scope?: WriteScope;
}

export interface ManageContext {
  cwd: string;
  home: string;
  sessionId?: string;
  catalog: SkillCatalog;
  /** Today as YYYY-MM-DD (tests pin it). */
  date?: string;
  /** Who makes the change, for the provenance stamp (default the agent; the user from the panel or /skills). */
  author?: "agent" | "user";
}

export interface FileWrite {
  path: string;
  oldText: string | null;
  newText: string;
}

export interface SkillChange {
  action: ManageAction;
  name: string;
  scope: WriteScope;
  dir: string;
  /** Files written, in order (SKILL.md last when a linked file changes with it). */
  writes: FileWrite[];
  /** Files removed (absolute). */
  removals: { path: string; oldText: string }[];
  /** The whole skill folder goes to the archive (delete). */
  removeDir?: string;
  /** The version after the change (undefined for delete). */
  version?: string;
  /** Set when a created skill overrides a bundled one of the same name. */
  overrides?: string;
}

/** A skill_manage request that cannot be carried out; the message is for the model. */
export class SkillManageError extends AgentError<"tool"> {
  constructor(message: string) {
    super("tool", message, {});
    this.name = "SkillManageError";
  }
}

export function planSkillChange(request: ManageRequest, context: ManageContext): SkillChange {
  if (!SKILL_NAME.test(request.name)) throw new SkillManageError(`"${request.name}" is not a valid skill name: use lowercase letters, digits and hyphens (at most 64), e.g. "release-checklist".`);
  if (request.action === "create") return planCreate(request, context);
  const target = writableSkill(request.name, context);
  const stamp = (text: string, change: string) => stamped(text, request.name, change, context, target.version);
  switch (request.action) {
    case "edit": {
      const content = required(request.content, "content", "the whole new SKILL.md, frontmatter included");
      checkSkillText(content, request.name, context);
      const newText = stamp(content, "edit");
      return change(request, target, [{ path: target.file, oldText: target.text, newText }], newText);
    }
    case "patch": {
      const oldString = required(request.oldString, "old_string", "text that occurs exactly once in the file");
      if (request.newString === undefined) throw new SkillManageError('"new_string" is required for patch (it may be empty to delete old_string).');
      const relative = request.filePath ? linkedPath(request.filePath) : SKILL_FILE;
      const file = path.join(target.dir, relative);
      const current = relative === SKILL_FILE ? target.text : readExisting(file, relative);
      const patched = replaceOnce(current, oldString, request.newString, relative);
      if (relative === SKILL_FILE) {
        checkSkillText(patched, request.name, context);
        const newText = stamp(patched, "patch");
        return change(request, target, [{ path: file, oldText: current, newText }], newText);
      }
      refuseIfFlagged(relative, patched, context);
      const skillText = stamp(target.text, `patch ${relative}`);
      return change(request, target, [{ path: file, oldText: current, newText: patched }, { path: target.file, oldText: target.text, newText: skillText }], skillText);
    }
    case "write_file": {
      const relative = linkedPath(required(request.filePath, "file_path", `a path under ${LINKED_FOLDERS.join("/, ")}/`));
      const content = request.fileContent;
      if (content === undefined) throw new SkillManageError('"file_content" is required for write_file: the whole content of the file.');
      if (content.length > MAX_FILE_CHARS) throw new SkillManageError(`file_content is ${content.length} characters, over the ${MAX_FILE_CHARS} limit.`);
      refuseIfFlagged(relative, content, context);
      const file = path.join(target.dir, relative);
      const oldText = readIfExists(file);
      const skillText = stamp(target.text, `write_file ${relative}`);
      return change(request, target, [{ path: file, oldText, newText: content }, { path: target.file, oldText: target.text, newText: skillText }], skillText);
    }
    case "remove_file": {
      const relative = linkedPath(required(request.filePath, "file_path", "the linked file to remove"));
      const file = path.join(target.dir, relative);
      const oldText = readExisting(file, relative);
      const skillText = stamp(target.text, `remove_file ${relative}`);
      return { ...change(request, target, [{ path: target.file, oldText: target.text, newText: skillText }], skillText), removals: [{ path: file, oldText }] };
    }
    case "delete":
      return { action: "delete", name: request.name, scope: target.scope, dir: target.dir, writes: [], removals: [{ path: target.file, oldText: target.text }], removeDir: target.dir };
  }
}

/**
 * Writes the planned change (each file atomically). With `home`, the SKILL.md it replaces is
 * kept first (skills/versions.ts: /skills history and /skills revert).
 */
export function applySkillChange(change: SkillChange, home: string): { archivedTo?: string } {
  for (const write of change.writes) if (write.oldText !== null && path.basename(write.path) === SKILL_FILE) keepSkillVersion(home, change.dir, write.oldText);
  for (const removal of change.removals) if (path.basename(removal.path) === SKILL_FILE) keepSkillVersion(home, change.dir, removal.oldText);
  // A deleted skill is archived, never destroyed: `/skills restore NAME` brings it back.
  if (change.removeDir) return { archivedTo: archiveSkill(home, change.removeDir) };
  for (const write of change.writes) writeAtomic(write.path, write.newText);
  for (const removal of change.removals) {
    fs.rmSync(removal.path, { force: true });
    pruneEmptyFolders(path.dirname(removal.path), change.dir);
  }
  return {};
}

interface WritableSkill {
  dir: string;
  file: string;
  text: string;
  scope: WriteScope;
  version?: string;
}

function planCreate(request: ManageRequest, context: ManageContext): SkillChange {
  const content = required(request.content, "content", "the whole SKILL.md: `---` frontmatter with name and description, `---`, then the markdown body");
  const existing = findSkill(context.catalog, request.name);
  if (existing && !isReadOnlySource(existing.source)) {
    throw new SkillManageError(`A ${existing.source} skill named "${request.name}" already exists (${existing.file}). Use edit or patch to change it, or pick another name.`);
  }
  const scope = request.scope ?? "user";
  const dir = path.join(scope === "project" ? path.join(context.cwd, PROJECT_WRITE_DIR) : userSkillsDir(context.home), request.name);
  const file = path.join(dir, SKILL_FILE);
  if (fs.existsSync(file)) throw new SkillManageError(`${file} already exists (it could not be read as a skill). Use edit to replace it.`);
  checkSkillText(content, request.name, context);
  const newText = stamped(content, request.name, "create", context, undefined);
  return {
    action: "create",
    name: request.name,
    scope,
    dir,
    writes: [{ path: file, oldText: null, newText }],
    removals: [],
    version: versionOf(newText),
    overrides: existing ? existing.file : undefined,
  };
}

/** The project or user skill to change; bundled skills and unknown names are refused with what to do instead. */
function writableSkill(name: string, context: ManageContext): WritableSkill {
  const skill: Skill | undefined = findSkill(context.catalog, name);
  if (skill && isReadOnlySource(skill.source)) {
    throw new SkillManageError(`"${name}" ${skill.source === "plugin" ? "comes with a plugin" : "is bundled with Hermes"} and read-only. To change it, create a user skill with the same name (action create, with the adapted SKILL.md): it takes precedence over the bundled one.`);
  }
  if (skill) return { dir: skill.dir, file: skill.file, text: skill.text, scope: skill.source === "project" ? "project" : "user", version: skill.version ?? "1.0.0" };
  // A SKILL.md that exists but cannot be parsed: edit may repair it.
  for (const [scope, root] of [["project", path.join(context.cwd, PROJECT_WRITE_DIR)], ["user", userSkillsDir(context.home)]] as const) {
    const file = path.join(root, name, SKILL_FILE);
    const text = readIfExists(file);
    if (text !== null) return { dir: path.dirname(file), file, text, scope, version: "1.0.0" };
  }
  throw new SkillManageError(`No project or user skill named "${name}". skills_list shows the skills; use create for a new one.`);
}

function change(request: ManageRequest, target: WritableSkill, writes: FileWrite[], skillText: string): SkillChange {
  return { action: request.action, name: request.name, scope: target.scope, dir: target.dir, writes, removals: [], version: versionOf(skillText) };
}

/** Validates a whole SKILL.md for `name` and scans it; throws with the reason. */
function checkSkillText(text: string, name: string, context: ManageContext): void {
  if (text.length > MAX_SKILL_CHARS) throw new SkillManageError(`SKILL.md is ${text.length} characters, over the ${MAX_SKILL_CHARS} limit: move details into references/ files (write_file).`);
  let parsed: ParsedSkillFile;
  try {
    parsed = parseSkillFile(text, name);
  } catch (error) {
    if (!(error instanceof SkillFormatError)) throw error;
    throw new SkillManageError(`The SKILL.md is not valid: ${error.message}. It must start with a frontmatter block:\n---\nname: ${name}\ndescription: <when to use this skill, in one line>\n---\nfollowed by the markdown body.`);
  }
  if (parsed.frontmatter.name !== name) throw new SkillManageError(`The frontmatter says name: ${parsed.frontmatter.name}, but the skill is "${name}": they must match.`);
  if (!parsed.body.trim()) throw new SkillManageError("The SKILL.md has no body: add the steps after the frontmatter.");
  refuseIfFlagged(SKILL_FILE, text, context);
}

function refuseIfFlagged(relative: string, content: string, context: ManageContext): void {
  const reason = scanSkillWrite(relative, content, { home: os.homedir(), cwd: context.cwd, hermesHome: context.home });
  if (reason) throw new SkillManageError(`Refused: ${relative} looks unsafe (${reason}). Skills are loaded into the model's context later, so they may not carry injected instructions, secret exfiltration, hidden text or destructive commands.`);
}

function stamped(text: string, name: string, change: string, context: ManageContext, previousVersion: string | undefined): string {
  const date = context.date ?? new Date().toISOString().slice(0, 10);
  try {
    return stampSkillFile(text, { author: context.author ?? "agent", sessionId: context.sessionId, date, change }, previousVersion, name);
  } catch (error) {
    if (error instanceof SkillFormatError) throw new SkillManageError(`The skill's SKILL.md cannot be updated (${error.message}); fix it first with edit.`);
    throw error;
  }
}

function versionOf(text: string): string | undefined {
  try {
    return parseSkillFile(text).frontmatter.version;
  } catch {
    // expected: a SKILL.md that does not parse has no version to report
    return undefined;
  }
}

/** A linked file's path, normalized, inside one of the linked folders. */
function linkedPath(filePath: string): string {
  const normalized = path.posix.normalize(filePath.replaceAll("\\", "/")).replace(/^\.\//, "");
  const first = normalized.split("/")[0] ?? "";
  if (path.posix.isAbsolute(normalized) || normalized.startsWith("..") || !(LINKED_FOLDERS as readonly string[]).includes(first) || normalized === first) {
    throw new SkillManageError(`file_path must be a file under ${LINKED_FOLDERS.map((folder) => `${folder}/`).join(", ")} inside the skill (got "${filePath}").`);
  }
  return normalized;
}

function replaceOnce(text: string, oldString: string, newString: string, relative: string): string {
  const first = text.indexOf(oldString);
  if (first < 0) throw new SkillManageError(`old_string was not found in ${relative}. Read it with skill_view and copy the exact text, whitespace included.`);
  const count = text.split(oldString).length - 1;
  if (count > 1) throw new SkillManageError(`old_string occurs ${count} times in ${relative}; include more surrounding text so it matches exactly once.`);
  return text.slice(0, first) + newString + text.slice(first + oldString.length);
}

function required(value: string | undefined, key: string, what: string): string {
  if (value === undefined || value.trim() === "") throw new SkillManageError(`"${key}" is required for this action: ${what}.`);
  return value;
}

function readExisting(file: string, relative: string): string {
  const text = readIfExists(file);
  if (text === null) throw new SkillManageError(`${relative} does not exist in this skill.`);
  return text;
}

function readIfExists(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

function writeAtomic(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.tmp`;
  try {
    fs.writeFileSync(temp, text);
    if (path.basename(path.dirname(file)) === "scripts" && text.startsWith("#!")) fs.chmodSync(temp, 0o755);
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

function pruneEmptyFolders(dir: string, stop: string): void {
  for (let current = dir; current !== stop && isInside(stop, current); current = path.dirname(current)) {
    try {
      fs.rmdirSync(current);
    } catch {
      // expected: ENOTEMPTY (or gone): folders that still hold files stay
      return;
    }
  }
}

