// The sandbox's seccomp filter: a command cannot leave a setuid/setgid file behind (it would be
// a setuid-root program when Hermes runs as root); ordinary chmod still works.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { statSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { after, describe, it } from "node:test";
import { CommandSandbox } from "../../acp-server/security/sandbox/command-sandbox";
import { sandboxFilter, setIdFilter } from "../../acp-server/security/sandbox/seccomp";
import type { SandboxPolicy } from "../../acp-server/security/sandbox/policy";
import { sandboxedSpawn } from "../../extension/terminal-sandbox";
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

  /** A host daemon's socket the sandbox can see (here in the workspace; in life /run/postgresql, /opt/…). */
  async function hostDaemon(name: string): Promise<{ path: string; connections: () => number; close: () => Promise<void> }> {
    let connections = 0;
    const server = net.createServer((socket) => {
      connections++;
      socket.end("daemon-answer\n");
    });
    const socketPath = path.join(machine.workspace, name);
    server.listen(socketPath);
    await once(server, "listening");
    return { path: socketPath, connections: () => connections, close: () => new Promise((resolve) => server.close(() => resolve())) };
  }
  const CONNECT = (socketPath: string) => `node -e 'const s = require("net").connect(${JSON.stringify(socketPath)}); s.on("data", (d) => console.log("GOT " + d)); s.on("error", (e) => console.log("ERR " + e.code))'`;

  async function run(commandRunner: LocalShellRunner, line: string): Promise<string> {
    const handle = await commandRunner.start(line, { cwd: machine.workspace, outputLimit: 100_000 });
    started.push(handle);
    await handle.waitForExit();
    return (await handle.output()).text;
  }

  it("refuses new unix sockets, so a host daemon's socket is out of reach; pipes, git, npm and node's children still work", async () => {
    const daemon = await hostDaemon("daemon.sock");
    try {
      const text = await run(runner, `${CONNECT(daemon.path)}; node -e 'console.log("child:" + require("child_process").execSync("echo piped").toString().trim())'; git init -q g && cd g && git -c user.email=a@b -c user.name=a commit -q --allow-empty -m x && git log --oneline | wc -l; npm --version >/dev/null && echo npm-ok`);
      assert.match(text, /ERR EACCES/);
      assert.doesNotMatch(text, /GOT daemon-answer/);
      assert.equal(daemon.connections(), 0);
      assert.match(text, /child:piped/);
      assert.match(text, /^1$/m, "git commit and log work");
      assert.match(text, /npm-ok/);
    } finally {
      await daemon.close();
    }
  });

  it("lets commands reach local daemons when terminal.sandbox_unix_sockets is on", async () => {
    const open = new CommandSandbox({ mode: "on", allowedDomains: [], unixSockets: true }, () => ({ roots: [machine.workspace], readOnlyWorkspace: false, sessionKey: "sandbox-seccomp-unix", home: machine.home, hermesHome: machine.hermesHome }));
    const daemon = await hostDaemon("daemon-open.sock");
    try {
      const text = await run(new LocalShellRunner({ ...process.env, HOME: machine.home }, open), CONNECT(daemon.path));
      assert.match(text, /GOT daemon-answer/);
      assert.equal(daemon.connections(), 1);
    } finally {
      await daemon.close();
    }
  });

  it("the VS Code extension's terminals load the same filter (set-id bits and unix sockets refused)", async () => {
    const daemon = await hostDaemon("daemon-ext.sock");
    try {
      const policy: SandboxPolicy = sandbox.policy();
      const wire = { writable: policy.writable, readOnly: policy.readOnly, hidden: policy.hidden, tmpDir: policy.tmpDir, network: { kind: "off" as const }, ...(policy.home ? { home: policy.home } : {}) };
      const line = `cp /bin/true ./ext-tool && chmod 4755 ./ext-tool; ${CONNECT(daemon.path)}`;
      const plan = sandboxedSpawn({ sessionId: "s", command: line, cwd: machine.workspace, _meta: { "hermes/sandbox": wire } }, ["/bin/sh", "-c", line]);
      assert.ok(plan);
      const child = spawn(plan.file, plan.args, { cwd: machine.workspace, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout.on("data", (d: Buffer) => (out += d.toString()));
      child.stderr.on("data", (d: Buffer) => (out += d.toString()));
      await once(child, "close");
      assert.match(out, /Operation not permitted/);
      assert.match(out, /ERR EACCES/);
      assert.equal(daemon.connections(), 0);
      assert.equal(statSync(path.join(machine.workspace, "ext-tool")).mode & 0o6000, 0);
    } finally {
      await daemon.close();
    }
  });

  it("is a valid program for each architecture it knows (8-byte instructions, ends in a return)", () => {
    for (const arch of ["x64", "arm64"]) {
      for (const program of [setIdFilter(arch), sandboxFilter({ unixSockets: false }, arch)]) {
        assert.ok(program && program.length % 8 === 0 && program.length / 8 < 64);
        assert.equal(program.readUInt16LE(program.length - 8), 0x06, "last instruction returns");
      }
      const program = setIdFilter(arch);
      assert.ok(program);
      assert.equal(program.readUInt16LE(program.length - 8), 0x06, "last instruction returns");
    }
    assert.equal(setIdFilter("ia32"), undefined);
  });
});
