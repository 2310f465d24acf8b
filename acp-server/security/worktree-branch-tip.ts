// Where a chat worktree's branch should be, as far as the chat itself knows. Every chat's
// `hermes/…` branch lives in one folder, refs/heads/hermes, which each worktree chat's sandbox
// must be able to write for its own commits (a ref is renamed into place), so a command in one
// chat can move ANOTHER chat's branch. What a branch points at matters to `/worktree apply
// --merge`: the merge is built from the branch's history, so a moved branch could pick the merge
// base (and turn back the checkout's newer changes) or bring in commits the chat never made.
//
// So Hermes notes the branch's commit each time the chat itself may have moved it: when the
// worktree is made, after each of the chat's own commands, after Hermes commits there. A merge
// first checks the branch is still there. The note lives in the worktree's own git folder:
// only this chat's sandbox can write it (other chats see it read-only), and this chat forging
// its own note gains nothing it could not do by committing on its own branch.
import path from "node:path";
import { PathMovedError, unlinkPinned, writePinned } from "../util/no-follow-io";
import { safeGit } from "./safe-git";
import { readOwnGitFile } from "./sandbox/worktree-commit-mounts";
import { chatWorktreeGit } from "./worktree-objects";

const NOTE = "hermes-branch-tip";
const HERMES_BRANCH = /^ref:\s*(refs\/heads\/hermes\/\S+)\s*$/;
const COMMIT = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

export interface BranchTip {
  ref: string;
  commit: string;
}

/** Notes where the `hermes/…` branch of the chat worktree at `root` is now (nothing for any other folder). */
export async function recordBranchTip(root: string): Promise<void> {
  const git = chatWorktreeGit(root);
  if (!git) return;
  const ref = HERMES_BRANCH.exec(readOwnGitFile(path.join(git.gitDir, "HEAD")) ?? "")?.[1];
  if (!ref) return;
  const commit = await refCommit(git.commonDir, ref);
  if (!commit) return;
  // Written without following links: this chat's own commands could have put one there. Such a
  // link is removed (itself, never what it points at) and the note written in its place.
  const note = { real: path.join(git.gitDir, NOTE), linked: false };
  try {
    writePinned(note, `${ref} ${commit}\n`, { tag: "tip" });
  } catch (error) {
    if (!(error instanceof PathMovedError)) throw error;
    unlinkPinned(note);
    writePinned(note, `${ref} ${commit}\n`, { tag: "tip" });
  }
}

/**
 * Whether `branch` of the chat worktree at `root` is where the chat last left it: undefined when
 * it is, else the commit noted (none: never noted) and the one it is at now.
 */
export async function branchMovedElsewhere(root: string, branch: string): Promise<{ noted?: string; now: string } | undefined> {
  const git = chatWorktreeGit(root);
  const ref = `refs/heads/${branch}`;
  // Only `hermes/…` branches are writable from a sandbox; any other moves with the user alone.
  if (!git || !ref.startsWith("refs/heads/hermes/")) return undefined;
  const now = (await refCommit(git.commonDir, ref)) ?? "(missing)";
  const noted = readNote(git.gitDir);
  if (noted?.ref === ref && noted.commit === now) return undefined;
  return { ...(noted?.ref === ref ? { noted: noted.commit } : {}), now };
}

function readNote(gitDir: string): BranchTip | undefined {
  // Missing, a link or a folder in its place: no note, so the branch counts as moved (the safe side).
  const [ref, commit] = (readOwnGitFile(path.join(gitDir, NOTE)) ?? "").trim().split(" ");
  return ref && commit && COMMIT.test(commit) ? { ref, commit } : undefined;
}

/** The commit a ref names, read as git reads it (loose or packed); undefined when it names none. */
async function refCommit(commonDir: string, ref: string): Promise<string | undefined> {
  const fail = (message: string) => new Error(`Could not read ${ref} in ${commonDir}: ${message}`);
  const found = await safeGit(commonDir, [`--git-dir=${commonDir}`, "rev-parse", "--verify", "--quiet", ref], { okCodes: [1] }, fail);
  const commit = found.stdout.trim();
  return found.code === 0 && COMMIT.test(commit) ? commit : undefined;
}
