// A child process for the apply crash test: brings a worktree's change into the main checkout
// as /worktree apply does, and is killed (SIGKILL) by the test.
//   node --import tsx test/support/worktree-apply-child.ts <worktree json> <stop at>
// `stop at`: a step of apply-plan.ts ("staged", "moved N", "plan removed") where it prints
// "paused" and waits for the kill; "none": it prints "ready", runs the whole apply and prints
// "done <ms>" (the test kills it after a delay of its choosing).
import { finishInterruptedApply, stagePatch } from "../../acp-server/worktrees/apply-plan";
import type { SessionWorktree } from "../../acp-server/worktrees/session-worktree";
import { applyWorktree } from "../../acp-server/worktrees/worktree-apply";
import { worktreeDiff } from "../../acp-server/worktrees/worktree-diff";

const [json, stopAt] = process.argv.slice(2);
const worktree = JSON.parse(json!) as SessionWorktree;
if (stopAt === "none") {
  process.stdout.write("ready\n");
  const started = performance.now();
  const outcome = await applyWorktree(worktree, "patch", "crash test");
  if (outcome.status !== "applied") throw new Error(`not applied: ${JSON.stringify(outcome)}`);
  process.stdout.write(`done ${Math.round(performance.now() - started)}\n`);
} else {
  const onStep = async (point: string) => {
    if (point !== stopAt) return;
    process.stdout.write("paused\n");
    setInterval(() => {}, 1_000); // keeps the process alive until the test kills it
    await new Promise(() => {});
  };
  const diff = await worktreeDiff(worktree);
  const staged = await stagePatch(worktree, diff.patch, diff.files, { onStep });
  if (!staged.staged) throw new Error(staged.stderr);
  await finishInterruptedApply(worktree, { onStep });
  process.stdout.write("finished\n"); // the stop point was never reached
}
