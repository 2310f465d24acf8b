// Symlinks already on disk (made by an earlier command, or shipped in a cloned repo) are
// followed by the command screen like the kernel follows them: a delete or write through a
// link into ~ or HERMES_HOME gets the verdict of the real target (red-team finding 2b).
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { screenCommand } from "../../acp-server/security/command-screen";

test("on-disk symlinks are resolved before the hardline, rc-file and HERMES_HOME rules", (t) => {
  const root = mkdtempSync(path.join(os.tmpdir(), "hermes-screen-links-"));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const home = path.join(root, "home");
  const hermesHome = path.join(home, ".hermes");
  const workspace = path.join(root, "project");
  mkdirSync(hermesHome, { recursive: true });
  mkdirSync(workspace);
  symlinkSync(home, path.join(workspace, "homelink"));
  symlinkSync(path.join(hermesHome, "config.yaml"), path.join(workspace, "cfg"));
  symlinkSync(path.join(home, ".bashrc"), path.join(workspace, "rc"));
  const screen = (command: string) => screenCommand(command, { home, cwd: workspace, workspace, hermesHome, user: "dev" });

  for (const command of ["rm -rf homelink/", "rm -rf homelink/*", "rm -rf homelink"]) {
    assert.equal(screen(command).level, "hardline", command);
  }
  for (const command of ["echo x >> cfg", "cp evil cfg", "tee cfg < evil", "echo x > homelink/.hermes/config.yaml", "echo x > /proc/self/cwd/../home/.hermes/config.yaml"]) {
    assert.equal(screen(command).hermesState, true, command);
  }
  for (const command of ["echo x > homelink/.bashrc", "echo x >> rc", "rm -rf homelink/.ssh"]) {
    assert.equal(screen(command).level, "dangerous", command);
  }
  assert.equal(screen("echo x > notes.txt").level, "safe");
  assert.equal(screen("rm -rf build").level, "dangerous");
});
