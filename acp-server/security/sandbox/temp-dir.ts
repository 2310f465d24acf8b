// Each session's temp folder: the one place outside the workspace a sandboxed command may
// write (seen as /tmp inside on Linux, $TMPDIR everywhere). Kept while the process lives, so a
// file written by one command is there for the next; removed when Hermes exits.
import { mkdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

let root: string | undefined;

/** This process's folder for sandbox state (session temp folders, proxy sockets). */
export function sandboxStateDir(): string {
  if (!root) {
    root = path.join(os.tmpdir(), `hermes-sandbox-${process.pid}`);
    mkdirSync(root, { recursive: true, mode: 0o700 });
    const created = root;
    process.once("exit", () => rmSync(created, { recursive: true, force: true }));
  }
  return root;
}

export function sessionTempDir(sessionKey: string): string {
  // Session keys never start with "." (proxy folders do).
  const dir = path.join(sandboxStateDir(), sessionKey.replace(/[^\w-]/g, "_").slice(0, 80) || "session");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}
