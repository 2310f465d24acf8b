// A child process for the apply crash test: brings a worktree's change into the main checkout
// as /worktree apply does, and is killed (SIGKILL) by the test.
//   node --import tsx test/support/worktree-apply-child.ts <worktree json> <patch|merge> <stop at>
// `stop at`: a step of apply-plan.ts ("staged", "moved N", "index updated", "ref moved", "plan
// removed") where it prints "paused" and waits for the kill; "none": it prints "ready", runs the
// whole apply and prints "done <ms>" (the test kills it after a delay of its choosing).
import type { SessionWorktree } from "../../acp-server/worktrees/session-worktree";
import { recordBranchTip } from "../../acp-server/security/worktree-branch-tip";
import { applyWorktree } from "../../acp-server/worktrees/worktree-apply";

const [json, mode, stopAt] = process.argv.slice(2);
const worktree = JSON.parse(json!) as SessionWorktree;
const onStep = async (point: string) => {
  if (point !== stopAt) return;
  process.stdout.write("paused\n");
  setInterval(() => {}, 1_000); // keeps the process alive until the test kills it
  await new Promise(() => {});
};
// The test committed on the branch as the chat's own command would; Hermes notes the branch after
// each such command (security/worktree-branch-tip.ts), so a merge finds it where the chat left it.
await recordBranchTip(worktree.path);
process.stdout.write("ready\n");
const started = performance.now();
const outcome = await applyWorktree(worktree, mode === "merge" ? "merge" : "patch", "crash test", undefined, { onStep });
if (outcome.status !== "applied") throw new Error(`not applied: ${JSON.stringify(outcome)}`);
process.stdout.write(`done ${Math.round(performance.now() - started)}\n`);
