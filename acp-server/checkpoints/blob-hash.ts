// What a path holds on disk, in git's terms (blob id + mode), computed in process: git's blob
// id is sha1("blob <size>\0" + bytes), and a symlink's blob is its target text. Used to tell
// whether a file still holds what a restore expects before it is overwritten or deleted.
import { createHash } from "node:crypto";
import { lstatSync, readFileSync, readlinkSync } from "node:fs";

export type DiskState = { kind: "absent" } | { kind: "other" } | { kind: "blob"; oid: string; mode: string };

export function blobId(content: Buffer): string {
  return createHash("sha1").update(`blob ${content.length}\0`).update(content).digest("hex");
}

export function diskState(absolute: string): DiskState {
  let stat;
  try {
    stat = lstatSync(absolute);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR") return { kind: "absent" };
    throw error;
  }
  if (stat.isSymbolicLink()) return { kind: "blob", oid: blobId(Buffer.from(readlinkSync(absolute, { encoding: "buffer" }))), mode: "120000" };
  if (!stat.isFile()) return { kind: "other" };
  // git records one executable bit: the owner's.
  return { kind: "blob", oid: blobId(readFileSync(absolute)), mode: stat.mode & 0o100 ? "100755" : "100644" };
}

export function sameState(state: DiskState, expected: { oid: string; mode: string } | undefined): boolean {
  if (expected === undefined) return state.kind === "absent";
  return state.kind === "blob" && state.oid === expected.oid && state.mode === expected.mode;
}
