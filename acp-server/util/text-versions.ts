// Earlier texts of a file, kept one file per version in a folder of their own: what a skill's
// or a memory file's "history" and "revert" read. A version file is `<ms>-<label>.md`, the time
// the text was replaced and a short label (a skill's version, a memory file's entry count).
import fs from "node:fs";
import path from "node:path";
import { writeFileAtomicSync } from "./atomic-write";
import { createLogger } from "./log";

const log = createLogger("text-versions");

export interface TextVersion {
  /** The file holding that text. */
  file: string;
  /** Its label ("?" when it had none). */
  label: string;
  /** When it was replaced (ms). */
  savedAt: number;
}

/**
 * Keeps `text` in `dir` (the newest `max` are kept). The same text as the newest version is not
 * kept twice. Throws on a file system error: callers decide whether a lost version matters.
 */
export function keepTextVersion(dir: string, text: string, label: string, max: number): void {
  fs.mkdirSync(dir, { recursive: true });
  const latest = listTextVersions(dir)[0];
  if (latest && fs.readFileSync(latest.file, "utf8") === text) return;
  const name = label.replace(/[^\w.-]/g, "_").slice(0, 40) || "?";
  let at = Date.now();
  // Two changes in one millisecond must not overwrite each other, and a new version must sort first.
  if (latest && at <= latest.savedAt) at = latest.savedAt + 1;
  while (fs.existsSync(path.join(dir, `${at}-${name}.md`))) at++;
  writeFileAtomicSync(path.join(dir, `${at}-${name}.md`), text);
  for (const old of listTextVersions(dir).slice(max)) fs.rmSync(old.file, { force: true });
}

/** The kept versions, newest first (none when the folder does not exist). */
export function listTextVersions(dir: string): TextVersion[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (error) {
    // ENOENT: no history folder yet means no earlier versions. Any other failure shows none too, but is logged.
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") log.warn("cannot read a version history folder; no earlier versions shown", { dir, error });
    return [];
  }
  const versions: TextVersion[] = [];
  for (const name of names) {
    const match = /^(\d+)-(.+)\.md$/.exec(name);
    if (match) versions.push({ file: path.join(dir, name), savedAt: Number(match[1]), label: match[2] ?? "?" });
  }
  return versions.sort((a, b) => b.savedAt - a.savedAt);
}
