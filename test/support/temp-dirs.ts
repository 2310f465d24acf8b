// Temporary folders for tests, removed when the test process exits (pass or fail), so a
// test run leaves nothing behind in /tmp.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const created: string[] = [];
let hooked = false;

/** `base`: where to make it (default the OS temp folder). */
export function makeTempDirSync(prefix = "hermes-test-", base = os.tmpdir()): string {
  if (!hooked) {
    hooked = true;
    process.once("exit", () => {
      for (const dir of created) rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
    });
  }
  const dir = mkdtempSync(path.join(base, prefix));
  created.push(dir);
  return dir;
}
