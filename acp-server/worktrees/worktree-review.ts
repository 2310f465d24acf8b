// A worktree chat's changes for review in the panel, and applying only the hunks the user
// accepted. The changes are each file's text at the chat's start (its base commit) and now (the
// worktree's file). Applying cuts the same hunks from the same texts (common/review-hunks.ts),
// builds the accepted result in a temporary index, and brings that patch in through
// applyWorktree: the same refusals as /worktree apply (local changes to the files, a checkout
// that moved on), all or nothing. A file whose texts changed since the review is refused.
import { createHash } from "node:crypto";
import { lstat, readFile } from "node:fs/promises";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { applyHunks, computeHunks } from "../../common/review-hunks";
import type { WorktreeApplyParams, WorktreeChange } from "../../common/worktree-review";
import { repoGit } from "./repo-git";
import type { SessionWorktree } from "./session-worktree";
import { applyWorktree, type ApplyOutcome } from "./worktree-apply";
import { worktreeDiff } from "./worktree-diff";

/** Larger files are not reviewed in the panel (/worktree apply brings them whole). */
const MAX_REVIEW_BYTES = 1024 * 1024;
/** A side of a file that is no text to review: binary, a link, a submodule, too large. */
const UNREVIEWABLE = Symbol("unreviewable");
type Side = string | null | typeof UNREVIEWABLE;

export async function worktreeChanges(worktree: SessionWorktree): Promise<WorktreeChange[]> {
  const diff = await worktreeDiff(worktree);
  return Promise.all(diff.files.map((file) => fileChange(worktree, file)));
}

async function fileChange(worktree: SessionWorktree, file: string): Promise<WorktreeChange> {
  const [before, now] = await Promise.all([baseText(worktree, file), currentText(worktree, file)]);
  const version = versionOf(before, now);
  if (before === UNREVIEWABLE || now === UNREVIEWABLE) return { path: file, oldText: null, newText: null, unreviewable: true, version };
  return { path: file, oldText: before, newText: now, unreviewable: false, version };
}

/** The file at the chat's start; null when it did not exist. */
async function baseText(worktree: SessionWorktree, file: string): Promise<Side> {
  const spec = `${worktree.base}:${file}`;
  const kind = await repoGit(worktree.path, ["cat-file", "-t", spec], { okCodes: [128] });
  if (kind.code !== 0) return null;
  if (kind.stdout.trim() !== "blob") return UNREVIEWABLE;
  const mode = await repoGit(worktree.path, ["ls-tree", worktree.base, "--", file]);
  if (mode.stdout.startsWith("120000")) return UNREVIEWABLE;
  const size = Number((await repoGit(worktree.path, ["cat-file", "-s", spec])).stdout.trim());
  if (size > MAX_REVIEW_BYTES) return UNREVIEWABLE;
  return textOrUnreviewable((await repoGit(worktree.path, ["cat-file", "blob", spec])).stdout);
}

/** The worktree's file now; null when the chat deleted it. */
async function currentText(worktree: SessionWorktree, file: string): Promise<Side> {
  const full = path.join(worktree.path, file);
  const info = await lstat(full).catch(() => undefined); // expected: deleted by the chat
  if (!info) return null;
  if (!info.isFile() || info.size > MAX_REVIEW_BYTES) return UNREVIEWABLE;
  return textOrUnreviewable(await readFile(full, "utf8"));
}

function textOrUnreviewable(text: string): string | typeof UNREVIEWABLE {
  return text.includes("\0") || text.includes("\uFFFD") ? UNREVIEWABLE : text;
}

function versionOf(before: Side, now: Side): string {
  const hash = createHash("sha256");
  for (const side of [before, now] as Side[]) {
    if (side === null) hash.update("\u0001null");
    else if (side === UNREVIEWABLE) hash.update("\u0003unreviewable");
    else hash.update(`\u0002${side.length}:${side}`);
  }
  return hash.digest("hex").slice(0, 32);
}

export type SubsetOutcome = ApplyOutcome | { status: "stale"; files: string[] };

/**
 * Applies the accepted hunks of each named file into the main checkout. Refused, with nothing
 * changed, when a file is not one of the chat's changes, cannot be reviewed here, or changed
 * since the review (its version differs).
 */
export async function applyAcceptedHunks(worktree: SessionWorktree, choices: WorktreeApplyParams["files"], message: string): Promise<SubsetOutcome> {
  const changes = new Map((await worktreeChanges(worktree)).map((change) => [change.path, change]));
  const stale = choices.filter((choice) => {
    const change = changes.get(choice.path);
    return !change || change.unreviewable || change.version !== choice.version;
  });
  if (stale.length > 0) return { status: "stale", files: stale.map((choice) => choice.path) };
  const results: { path: string; text: string | null }[] = [];
  for (const choice of choices) {
    const change = changes.get(choice.path)!;
    const oldText = change.oldText ?? "";
    const newText = change.newText ?? "";
    const hunks = computeHunks(oldText, newText);
    const accepted = [...new Set(choice.accepted)].filter((index) => index < hunks.length);
    if (accepted.length === 0) continue;
    // Every hunk of a deletion accepted: the file goes (an empty file would stay otherwise).
    if (change.newText === null && accepted.length === hunks.length) results.push({ path: choice.path, text: null });
    else results.push({ path: choice.path, text: applyHunks(oldText, newText, hunks, accepted) });
  }
  if (results.length === 0) return { status: "nothing" };
  const diff = await acceptedDiff(worktree, results);
  if (diff.files.length === 0) return { status: "nothing" };
  return applyWorktree(worktree, "patch", message, diff);
}

/** The patch from the base to the base with `results` written in, built in a scratch index. */
async function acceptedDiff(worktree: SessionWorktree, results: { path: string; text: string | null }[]): Promise<{ patch: string; files: string[]; stat: string }> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "hermes-worktree-accepted-"));
  const env = { GIT_INDEX_FILE: path.join(scratch, "index") };
  try {
    await repoGit(worktree.path, ["read-tree", worktree.base], { env });
    for (const { path: file, text } of results) {
      if (text === null) {
        await repoGit(worktree.path, ["update-index", "--force-remove", "--", file], { env });
        continue;
      }
      const blob = (await repoGit(worktree.path, ["hash-object", "-w", "--stdin"], { input: text })).stdout.trim();
      await repoGit(worktree.path, ["update-index", "--add", "--cacheinfo", `${await fileMode(worktree, file)},${blob},${file}`], { env });
    }
    const [patch, names] = await Promise.all([
      repoGit(worktree.path, ["diff", "--cached", "--binary", "--no-color", "--no-ext-diff", worktree.base], { env }),
      repoGit(worktree.path, ["diff", "--cached", "--name-only", "-z", "--no-renames", worktree.base], { env }),
    ]);
    return { patch: patch.stdout, files: names.stdout.split("\0").filter(Boolean), stat: "" };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The worktree file's mode (executable or not), else the base's, else a plain file. */
async function fileMode(worktree: SessionWorktree, file: string): Promise<string> {
  const info = await lstat(path.join(worktree.path, file)).catch(() => undefined); // expected: deleted in the worktree, partly kept
  if (info) return info.mode & 0o111 ? "100755" : "100644";
  const listed = (await repoGit(worktree.path, ["ls-tree", worktree.base, "--", file])).stdout;
  return listed.startsWith("100755") ? "100755" : "100644";
}
