// The sandbox's seccomp filter: a command cannot leave a setuid/setgid file behind (it would be
// a setuid-root program when Hermes runs as root); ordinary chmod still works.
import assert from "node:assert/strict";
import { statSync } from "node:fs";
import path from "node:path";
import { after, describe, it } from "node:test";
import { CommandSandbox } from "../../acp-server/security/sandbox/command-sandbox";
import { setIdFilter } from "../../acp-server/security/sandbox/seccomp";
import type { RunningCommand } from "../../acp-server/tools/context";
import { LocalShellRunner } from "../../acp-server/tools/local-shell";
import { killAllProcessGroups } from "../../acp-server/util/process-group";
import { fakeMachine, sandboxSkip } from "../support/sandbox";

describe("the sandbox's seccomp filter", { skip: sandboxSkip() || (setIdFilter() ? false : `no seccomp table for ${process.arch}`) }, () => {
  const machine = fakeMachine();
  const sandbox = new CommandSandbox({ mode: "on", allowedDomains: [] }, () => ({
    roots: [machine.workspace],
    readOnlyWorkspace: false,
    sessionKey: "sandbox-seccomp-test",
    home: machine.home,
    hermesHome: machine.hermesHome,
  }));
  const runner = new LocalShellRunner({ ...process.env, HOME: machine.home }, sandbox);
  const started: RunningCommand[] = [];
  after(async () => {
    for (const handle of started) await handle.release();
    killAllProcessGroups();
  });

  it("refuses setuid and setgid bits, through chmod and through a program's own call; plain modes work", async () => {
    const handle = await runner.start(
      `cp /bin/true ./tool && chmod 700 ./tool && echo plain-ok; chmod u+s ./tool; chmod g+s ./tool; chmod 4755 ./tool; node -e 'try { require("fs").chmodSync("tool", 0o6755) } catch (e) { console.log(e.code) }'; echo $'\\x27'done`,
      { cwd: machine.workspace, outputLimit: 100_000 },
    );
    started.push(handle);
    await handle.waitForExit();
    const { text } = await handle.output();
    assert.match(text, /plain-ok/);
    assert.match(text, /EPERM/);
    assert.match(text, /Operation not permitted/);
    const mode = statSync(path.join(machine.workspace, "tool")).mode;
    assert.equal(mode & 0o6000, 0, `set-id bits on disk: ${mode.toString(8)}`);
    assert.equal(mode & 0o777, 0o700);
  });

  it("is a valid program for each architecture it knows (8-byte instructions, ends in a return)", () => {
    for (const arch of ["x64", "arm64"]) {
      const program = setIdFilter(arch);
      assert.ok(program && program.length % 8 === 0 && program.length / 8 < 64);
      assert.equal(program.readUInt16LE(program.length - 8), 0x06, "last instruction returns");
    }
    assert.equal(setIdFilter("ia32"), undefined);
  });
});
