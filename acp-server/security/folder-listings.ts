// What the plant guard's walk needs of one folder (its sub-folders, its `.git` entries, its names),
// remembered between walks: the guard walks the whole workspace before and after every command,
// and listing thousands of folders each time was most of its cost (bench:plant-guard).
//
// A remembered listing is used again only while the folder's inode and change time (ctime) are
// exactly what they were when it was listed. Adding, removing or renaming an entry changes the
// folder's ctime, and ctime cannot be set back by a process (utimes sets mtime and bumps ctime
// to now), so a command cannot hide a new `.git` or folder behind an old listing. Timestamps are
// only as fine as the file system keeps them, so a listing is trusted only when it was taken well
// after the folder last changed (git's "racy" rule): a change inside the same clock tick as the
// listing then cannot go unseen. Anything unusual (no stat, a ctime in the future) means list again.
import { lstatSync, readdirSync } from "node:fs";
import { canonicalName } from "./runs-later";

export interface FolderListing {
  /** Every name in the folder. */
  names: string[];
  /** Names of entries that are folders (not links to folders). */
  folders: string[];
  /** Names git reads as `.git`, in any spelling. */
  gitEntries: string[];
}

interface Remembered {
  dev: number;
  ino: number;
  ctimeMs: number;
  listing: FolderListing;
}

/**
 * How long after a folder's last change its listing may be trusted: coarser than any file
 * system's timestamps. Any later change then has a ctime at least this much newer, so the
 * millisecond float Node gives (exact to well under a microsecond today) tells them apart.
 */
const RACY_MARGIN_MS = 3_000;
/** Folders remembered at most; past it the memory starts over (a walk lists at most 20,000 per root set). */
const MAX_REMEMBERED = 60_000;

const remembered = new Map<string, Remembered>();

/**
 * The folder's listing, from memory when the folder provably did not change; undefined when it
 * cannot be listed. `now` is the clock (tests pass a later one to make fresh folders count as old).
 */
export function listFolder(dir: string, now: number = Date.now()): FolderListing | undefined {
  let info;
  try {
    info = lstatSync(dir);
  } catch {
    // expected: a folder removed or unreadable mid-walk has nothing git could read either
    remembered.delete(dir);
    return undefined;
  }
  const known = remembered.get(dir);
  if (known && known.dev === info.dev && known.ino === info.ino && known.ctimeMs === info.ctimeMs) return known.listing;

  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    // expected: as above
    remembered.delete(dir);
    return undefined;
  }
  const listing: FolderListing = { names: [], folders: [], gitEntries: [] };
  for (const entry of entries) {
    listing.names.push(entry.name);
    if (canonicalName(entry.name) === ".git") listing.gitEntries.push(entry.name);
    else if (entry.isDirectory()) listing.folders.push(entry.name);
  }
  if (info.isDirectory() && now - info.ctimeMs >= RACY_MARGIN_MS) {
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    remembered.set(dir, { dev: info.dev, ino: info.ino, ctimeMs: info.ctimeMs, listing });
  } else remembered.delete(dir);
  return listing;
}
