// After an editor's review applied only part of an edit, the diff a tool reports must show what
// landed, not what the model proposed: the transcript (and a reloaded session) would otherwise
// show changes that were never written.
import type { FileAccess, WriteOutcome } from "./context";

export interface EditDiff {
  type: "diff";
  path: string;
  oldText: string | null;
  newText: string;
}

export async function landedDiff(files: FileAccess, diff: EditDiff, written: WriteOutcome | void): Promise<EditDiff> {
  if (!written?.note) return diff;
  try {
    return { ...diff, newText: await files.readText(diff.path) };
  } catch {
    // expected: unreadable right after the write: keep the proposal; the note already tells the model
    return diff;
  }
}
