// Differences between two snapshots (trees or commits): per-file changes for listings and
// previews, the raw entries (blob ids and modes) a restore needs, and a capped unified diff
// of the text files for the permission request.
import { splitNul, type Git } from "./git";
import type { DiffResult, FileChange, FileChangeStatus } from "./types";

export const PATCH_CAP_BYTES = 256 * 1024;
export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

export interface RawEntry {
  status: string;
  path: string;
  oldPath?: string;
  oldMode: string;
  newMode: string;
  oldOid: string;
  newOid: string;
}

const ZERO_MODE = "000000";

/** `git diff-tree --raw -z` between two tree-ish objects; renames only when asked. */
export async function rawDiff(git: Git, from: string, to: string, { renames }: { renames: boolean }): Promise<RawEntry[]> {
  const args = ["diff-tree", "-r", "-z", "--raw", "--no-abbrev", renames ? "-M" : "--no-renames", from, to];
  const fields = splitNul((await git.run(args)).stdout);
  const entries: RawEntry[] = [];
  for (let i = 0; i < fields.length; ) {
    const header = fields[i++] ?? "";
    if (!header.startsWith(":")) continue;
    const [oldMode, newMode, oldOid, newOid, status] = header.slice(1).split(" ");
    const copied = status !== undefined && (status.startsWith("R") || status.startsWith("C"));
    const oldPath = copied ? fields[i++] : undefined;
    const file = fields[i++];
    // A restore built from a half-read entry would write the wrong file: refuse instead.
    if (oldMode === undefined || newMode === undefined || oldOid === undefined || newOid === undefined || status === undefined || file === undefined || (copied && oldPath === undefined)) {
      throw new Error(`git diff-tree printed an incomplete entry: ${JSON.stringify(header)}`);
    }
    if (copied) entries.push({ status: status.charAt(0), oldPath, path: file, oldMode, newMode, oldOid, newOid });
    else entries.push({ status, path: file, oldMode, newMode, oldOid, newOid });
  }
  return entries;
}

function statusOf(entry: RawEntry): FileChangeStatus {
  switch (entry.status) {
    case "A":
      return "added";
    case "D":
      return "deleted";
    case "R":
    case "C":
      return "renamed";
    case "T":
      return "type-changed";
    default:
      return entry.oldOid === entry.newOid && entry.oldMode !== entry.newMode ? "mode-changed" : "modified";
  }
}

export function toFileChange(entry: RawEntry, binary?: boolean): FileChange {
  const change: FileChange = { path: entry.path, status: statusOf(entry) };
  if (binary !== undefined) change.binary = binary;
  if (entry.oldPath !== undefined) change.oldPath = entry.oldPath;
  if (entry.oldMode !== ZERO_MODE) change.oldMode = entry.oldMode;
  if (entry.newMode !== ZERO_MODE) change.newMode = entry.newMode;
  return change;
}

/** Paths git counts as binary between the two (numstat prints "-" for their line counts). */
async function binaryPaths(git: Git, from: string, to: string): Promise<Set<string>> {
  const fields = splitNul((await git.run(["diff-tree", "-r", "-z", "--numstat", "-M", "--no-textconv", from, to])).stdout);
  const binary = new Set<string>();
  for (let i = 0; i < fields.length; ) {
    const [, added, deleted, path] = /^(\S+)\t(\S+)\t(.*)$/s.exec(fields[i++] ?? "") ?? [];
    if (path === undefined) continue;
    let file: string | undefined = path;
    if (file === "") {
      i++; // rename: old path, then new path
      file = fields[i++];
    }
    if (added === "-" && deleted === "-" && file !== undefined) binary.add(file);
  }
  return binary;
}

/** Per-file changes with binary flags, and the unified diff of the text ones (capped). */
export async function describeDiff(git: Git, from: string, to: string): Promise<DiffResult> {
  const [entries, binary, patchOut] = await Promise.all([
    rawDiff(git, from, to, { renames: true }),
    binaryPaths(git, from, to),
    git.run(["diff-tree", "-r", "-p", "-M", "--no-color", "--no-ext-diff", "--no-textconv", from, to]),
  ]);
  const patchBuffer = patchOut.stdout;
  const patchTruncated = patchBuffer.length > PATCH_CAP_BYTES;
  let patch = patchBuffer.subarray(0, PATCH_CAP_BYTES).toString("utf8");
  if (patchTruncated) patch = `${patch.slice(0, patch.lastIndexOf("\n") + 1)}… (diff truncated at ${PATCH_CAP_BYTES / 1024} KB)\n`;
  return { changes: entries.map((entry) => toFileChange(entry, binary.has(entry.path))), patch, patchTruncated };
}
