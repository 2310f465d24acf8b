// Turns a snapshot tree into a commit under a ref. Dates come from the store's clock (so
// pruning by age is testable), and the metadata is the message body (refs.ts).
import type { Git } from "./git";

export async function createCommit(git: Git, tree: string, parent: string | undefined, message: string, time: number): Promise<string> {
  const date = `@${Math.floor(time / 1000)} +0000`;
  const args = ["commit-tree", tree, ...(parent ? ["-p", parent] : []), "-F", "-"];
  return (await git.text(args, { input: message, env: { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } })).trim();
}

export async function setRef(git: Git, ref: string, commit: string): Promise<void> {
  await git.run(["update-ref", ref, commit]);
}

/** The tree of a commit. */
export async function treeOf(git: Git, commit: string): Promise<string> {
  return (await git.text(["rev-parse", `${commit}^{tree}`])).trim();
}
