// A real attacker for race tests: a separate process that keeps flipping one workspace path
// between what it was (a file or a folder) and a symlink to somewhere outside, with atomic
// renames so the name never disappears. The test waits for its "flipping" line (an event, not a
// sleep) and stops it with stop(), which waits for the process to exit.
import { spawn, type ChildProcess } from "node:child_process";
import { waitForOutput } from "./wait";

const FLIPPER = String.raw`
const fs = require("node:fs");
const [name, outside, kind] = process.argv.slice(1);
const link = name + ".flip-link";
const aside = name + ".flip-aside";
let announced = false;
for (;;) {
  try {
    if (kind === "file") {
      fs.rmSync(link, { force: true });
      fs.symlinkSync(outside, link);
      fs.renameSync(link, name); // the file becomes a link to the outside target
      fs.writeFileSync(aside, "inside\n");
      fs.renameSync(aside, name); // and a plain file again
    } else {
      // The folder steps aside and a link to the outside folder takes its name. A folder the tool
      // created meanwhile at the name (it was missing for a moment) is removed, so flipping goes on.
      const now = fs.lstatSync(name, { throwIfNoEntry: false });
      if (now && !now.isSymbolicLink()) {
        if (fs.existsSync(aside)) fs.rmSync(name, { recursive: true, force: true });
        else fs.renameSync(name, aside);
      }
      fs.rmSync(link, { force: true });
      fs.symlinkSync(outside, link);
      fs.renameSync(link, name);
      fs.renameSync(name, link); // and the folder is back
      fs.renameSync(aside, name);
    }
  } catch (error) {
    // the tool under test created or removed something meanwhile: keep flipping
  }
  if (!announced) { announced = true; process.stdout.write("flipping\n"); }
}
`;

export interface Flipper {
  stop(): Promise<void>;
}

/**
 * Starts flipping `name` (absolute) with a symlink to `outside`. `kind` says what `name` is
 * between flips: "file" (recreated with the text "inside\n") or "folder" (kept as it is).
 */
export async function startFlipper(name: string, outside: string, kind: "file" | "folder"): Promise<Flipper> {
  const child: ChildProcess = spawn(process.execPath, ["-e", FLIPPER, name, outside, kind], { stdio: ["ignore", "pipe", "inherit"] });
  await waitForOutput(child.stdout!, /flipping/, 10_000, "the flipper's first flip");
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGKILL");
      }),
  };
}
