// A child process for the crash test: plans undoing the last turn of a session and starts the
// restore, then, after `pauseAfter` files, prints "paused" and waits to be killed (SIGKILL).
//   node --import tsx test/support/checkpoint-restore-child.ts <workspace> <home> <session> <pauseAfter>
import { openCheckpointStore } from "../../acp-server/checkpoints/store";

const [workspace, home, sessionId, pauseAfter] = process.argv.slice(2);
const opened = await openCheckpointStore(workspace, { hermesHome: home });
if (!opened.ok) throw new Error(opened.reason);
const plan = await opened.store.planUndo(sessionId);
process.stdout.write(`planned ${plan.ops.length}\n`);
await opened.store.restore(plan, {
  onApplied: async (done) => {
    if (done !== Number(pauseAfter)) return;
    process.stdout.write("paused\n");
    setInterval(() => {}, 1_000); // keeps the process alive until the test kills it
    await new Promise(() => {});
  },
});
process.stdout.write("finished\n"); // never reached in the test
