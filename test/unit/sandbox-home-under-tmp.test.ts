// HOME and the workspace, each under /tmp or not: the sandbox replaces /tmp with the session's
// own folder, so a home under /tmp (CI runners, containers, a new user's test account) must be
// hidden inside that new /tmp, not buried under it. Before the fix every sandboxed command
// failed there ("Can't remount readonly") while the status said the sandbox was fine.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, describe, it } from "node:test";
import { bwrapArgs } from "../../acp-server/security/sandbox/bwrap";
import { CommandSandbox } from "../../acp-server/security/sandbox/command-sandbox";
import type { RunningCommand } from "../../acp-server/tools/context";
import { LocalShellRunner } from "../../acp-server/tools/local-shell";
import { killAllProcessGroups } from "../../acp-server/util/process-group";
import { sandboxSkip } from "../support/sandbox";
import { makeTempDirSync } from "../support/temp-dirs";

const started: RunningCommand[] = [];
after(async () => {
  for (const handle of started) await handle.release();
  killAllProcessGroups();
});

function machineAt(homeBase: string, workspaceBase: string) {
  const home = makeTempDirSync("hermes-home-", homeBase);
  const hermesHome = path.join(home, ".hermes");
  const workspace = path.join(makeTempDirSync("hermes-ws-", workspaceBase), "project");
  for (const dir of [path.join(home, ".ssh"), path.join(home, ".cache"), hermesHome, workspace]) mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(home, ".ssh", "id_rsa"), "secret-key-material");
  writeFileSync(path.join(home, "notes.txt"), "private notes");
  writeFileSync(path.join(hermesHome, "config.yaml"), "model: x\n");
  const sandbox = new CommandSandbox({ mode: "on", allowedDomains: [] }, () => ({ roots: [workspace], readOnlyWorkspace: false, sessionKey: `home-${path.basename(home)}`, home, hermesHome }));
  return { home, hermesHome, workspace, sandbox, runner: new LocalShellRunner({ ...process.env, HOME: home, HERMES_HOME: hermesHome }, sandbox) };
}

const places: [string, string][] = [
  ["/tmp", "/tmp"],
  ["/tmp", "/var/tmp"],
  ["/var/tmp", "/tmp"],
  ["/var/tmp", "/var/tmp"],
];

describe("the sandbox with HOME and the workspace under /tmp or not", { skip: sandboxSkip() }, () => {
  for (const [homeBase, workspaceBase] of places) {
    it(`HOME under ${homeBase}, workspace under ${workspaceBase}: commands run, with the same walls`, async () => {
      const machine = machineAt(homeBase, workspaceBase);
      assert.equal(machine.sandbox.status().active, true, machine.sandbox.status().reason);
      const line = [
        "echo made > here.txt && cat here.txt",
        "echo t > /tmp/t && echo tmp-ok",
        `cat ${machine.home}/.ssh/id_rsa ${machine.home}/notes.txt`,
        `echo x > ${machine.home}/planted.txt`,
        `echo x >> ${machine.hermesHome}/config.yaml`,
        "echo end",
      ].join("; ");
      const handle = await machine.runner.start(line, { cwd: machine.workspace, outputLimit: 100_000 });
      started.push(handle);
      await handle.waitForExit();
      const text = (await handle.output()).text;
      assert.match(text, /^made$/m, text);
      assert.match(text, /tmp-ok/, text);
      assert.match(text, /end/, text);
      assert.doesNotMatch(text, /secret-key-material|private notes/);
      assert.equal(readFileSync(path.join(machine.workspace, "here.txt"), "utf8"), "made\n");
      assert.throws(() => readFileSync(path.join(machine.home, "planted.txt")));
      assert.equal(readFileSync(path.join(machine.hermesHome, "config.yaml"), "utf8"), "model: x\n");
    });
  }
});

describe("bwrapArgs: the outer of /tmp and the home is mounted first", () => {
  const base = { writable: ["/work/app"], readOnly: [], hidden: [], tmpDir: "/var/tmp/hermes-sandbox-1/s", network: { kind: "off" as const }, unixSockets: false };
  const proc = { readOnly: [], masked: [] };
  const order = (home: string) => {
    const argv = bwrapArgs({ ...base, home: { path: home, visible: [] } }, { root: false, cwd: "/work/app", command: ["true"], proc });
    const tmp = argv.findIndex((word, i) => word === "--bind" && argv[i + 2] === "/tmp");
    const homeTmpfs = argv.findIndex((word, i) => word === "--tmpfs" && argv[i + 1] === home);
    return { tmp, homeTmpfs };
  };
  it("a home under /tmp comes after the session's /tmp", () => {
    const { tmp, homeTmpfs } = order("/tmp/ci-home");
    assert.ok(tmp !== -1 && tmp < homeTmpfs);
  });
  it("a home that is /tmp comes before it (the session's /tmp stays writable)", () => {
    const { tmp, homeTmpfs } = order("/tmp");
    assert.ok(homeTmpfs !== -1 && homeTmpfs < tmp);
  });
});
