// A restore plan → what the permission request shows: one "diff" per file (what the file
// holds now → what the restore makes it hold) after a text block that names the conflicts,
// sensitive and refused paths. Pure apart from reading the files and blobs it shows.
import { lstat, readFile } from "node:fs/promises";
import path from "node:path";
import type { RestorePlan } from "../types";
import type { DisplayContent } from "../../tools/context";

/** Most files shown as diffs; the rest are named in the summary. */
const MAX_DIFF_FILES = 40;
/** Bigger files (or blobs) are named, not shown. */
const MAX_DIFF_BYTES = 256 * 1024;

export interface PreviewSource {
  workspace: string;
  readBlob(oid: string): Promise<Buffer>;
}

export async function restorePreview(plan: RestorePlan, source: PreviewSource, heading: string): Promise<DisplayContent[]> {
  const diffs: DisplayContent[] = [];
  const notShown: string[] = [];
  for (const op of plan.ops) {
    if (diffs.length >= MAX_DIFF_FILES) {
      notShown.push(op.path);
      continue;
    }
    const absolute = path.join(source.workspace, op.path);
    const now = await currentText(absolute);
    const target = op.target ? await blobText(source, op.target.oid) : "";
    if (typeof now !== "string" || typeof target !== "string") {
      const unreadable = [now, target].find((side): side is { unreadable: string } => typeof side === "object");
      notShown.push(`${op.path} (${unreadable ? `could not be read: ${unreadable.unreadable}` : "binary, a link or too big to show"})`);
      continue;
    }
    diffs.push({ type: "diff", path: absolute, oldText: now, newText: target });
  }
  return [{ type: "text", text: summary(plan, heading, notShown) }, ...diffs];
}

function summary(plan: RestorePlan, heading: string, notShown: string[]): string {
  const lines = [heading];
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
  const changes = plan.diff.changes;
  const by = (status: string) => changes.filter((change) => change.status === status).length;
  lines.push(`${count(plan.ops.length, "file")} would change (${by("added")} brought back or recreated, ${by("deleted")} removed, ${by("modified")} reverted, ${by("renamed")} renamed back).`);
  if (plan.conflicts.length) {
    lines.push(`**Changed after the agent's turn (by you or another session): ${plan.conflicts.map((c) => `\`${c.path}\``).join(", ")}.** Choose whether to overwrite them or keep them as they are.`);
  }
  if (plan.sensitive.length) lines.push(`Sensitive files: ${plan.sensitive.map((s) => `\`${s.path}\` (${s.reason})`).join(", ")}.`);
  if (plan.refused.length) lines.push(`Left alone (the workspace guard refuses them): ${plan.refused.map((r) => `\`${r.path}\` (${r.reason})`).join(", ")}.`);
  if (notShown.length) lines.push(`Not shown as a diff: ${notShown.slice(0, 50).join(", ")}${notShown.length > 50 ? ", …" : ""}.`);
  return lines.join("\n\n");
}

/** The file as it is now: "" when absent, undefined when it cannot be shown as text, the reason when it cannot be read. */
async function currentText(file: string): Promise<string | undefined | { unreadable: string }> {
  try {
    const stat = await lstat(file);
    if (!stat.isFile() || stat.size > MAX_DIFF_BYTES) return undefined;
    return textOf(await readFile(file));
  } catch (error) {
    // expected: ENOENT, the file is gone since the turn (the restore brings it back): its text now is none.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "";
    return { unreadable: (error as NodeJS.ErrnoException).code ?? String(error) };
  }
}

/** A checkpoint's blob as text: undefined when it cannot be shown as text, the reason when it cannot be read. */
async function blobText(source: PreviewSource, oid: string): Promise<string | undefined | { unreadable: string }> {
  try {
    const blob = await source.readBlob(oid);
    return blob.length > MAX_DIFF_BYTES ? undefined : textOf(blob);
  } catch (error) {
    return { unreadable: error instanceof Error ? error.message : String(error) };
  }
}

function textOf(bytes: Buffer): string | undefined {
  return bytes.includes(0) ? undefined : bytes.toString("utf8");
}
