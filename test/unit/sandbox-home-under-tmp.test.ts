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
  // HOME=/tmp itself: the files live in a folder of their own under it (the host's /tmp is shared).
  const home = homeBase === "/tmp itself" ? "/tmp" : makeTempDirSync("hermes-home-", homeBase);
  const own = home === "/tmp" ? makeTempDirSync("hermes-home-", "/tmp") : home;
  const hermesHome = path.join(own, ".hermes");
  const workspace = path.join(makeTempDirSync("hermes-ws-", workspaceBase), "project");
  for (const dir of [path.join(own, ".ssh"), path.join(own, ".cache"), hermesHome, workspace]) mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(own, ".ssh", "id_rsa"), "secret-key-material");
  writeFileSync(path.join(own, "notes.txt"), "private notes");
  writeFileSync(path.join(hermesHome, "config.yaml"), "model: x\n");
  const sandbox = new CommandSandbox({ mode: "on", allowedDomains: [] }, () => ({ roots: [workspace], readOnlyWorkspace: false, sessionKey: `home-${path.basename(own)}`, home, hermesHome }));
  return { home, own, hermesHome, workspace, sandbox, runner: new LocalShellRunner({ ...process.env, HOME: home, HERMES_HOME: hermesHome }, sandbox) };
}

const places: [string, string][] = [
  ["/tmp itself", "/var/tmp"],
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
        `cat ${machine.own}/.ssh/id_rsa ${machine.own}/notes.txt`,
        `echo x > ${machine.own}/planted.txt`,
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
      assert.throws(() => readFileSync(path.join(machine.own, "planted.txt")));
      assert.equal(readFileSync(path.join(machine.hermesHome, "config.yaml"), "utf8"), "model: x\n");
    });
  }
});

describe("bwrapArgs: the session's /tmp is mounted before the home", () => {
  const base = { writable: ["/work/app"], readOnly: [], hidden: [], tmpDir: "/var/tmp/hermes-sandbox-1/s", network: { kind: "off" as const }, unixSockets: false };
  const proc = { readOnly: [], masked: [] };
  const argvFor = (home: string) => bwrapArgs({ ...base, home: { path: home, visible: [] } }, { root: false, cwd: "/work/app", command: ["true"], proc });
  it("a home under /tmp comes after the session's /tmp", () => {
    const argv = argvFor("/tmp/ci-home");
    const tmp = argv.findIndex((word, i) => word === "--bind" && argv[i + 2] === "/tmp");
    const homeTmpfs = argv.findIndex((word, i) => word === "--tmpfs" && argv[i + 1] === "/tmp/ci-home");
    assert.ok(tmp !== -1 && tmp < homeTmpfs, argv.join(" "));
  });
  it("a home that is /tmp is not remounted read-only (that would make the session's /tmp read-only)", () => {
    const argv = argvFor("/tmp");
    assert.equal(argv.some((word, i) => word === "--remount-ro" && argv[i + 1] === "/tmp"), false, argv.join(" "));
  });
});
