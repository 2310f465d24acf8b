// A process that starts a process group through util/process-group.ts and then ends as the
// test asks, so the test can check the group died with it. The group's members write to this
// process's stdout, so the test's pipe closes only when every one of them is gone.
//   node --import tsx test/support/process-group-child.ts exit|signal|handled
import { ProcessGroup } from "../../acp-server/util/process-group";

const mode = process.argv[2];
if (mode === "handled") {
  // Another SIGTERM handler decides (as the CLI's shutdown does); it exits with its own code.
  process.on("SIGTERM", () => process.exit(3));
}
const group = ProcessGroup.spawn("/bin/sh", ["-c", "sleep 1000 & exec sleep 1000"], { stdio: ["ignore", "inherit", "inherit"] });
group.child.once("spawn", () => {
  process.stdout.write(`ready ${group.pid}\n`);
  if (mode === "exit") process.exit(0);
});
// Stay up until told otherwise.
setInterval(() => {}, 1 << 30);
