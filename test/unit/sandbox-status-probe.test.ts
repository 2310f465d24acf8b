// Honest status: the sandbox is "active" only after something really ran inside it. macOS
// cannot run here, so detection's decision is tested with the probe's result injected; the
// session's probe (a command with the session's real mounts) runs for real with bubblewrap.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { CommandSandbox } from "../../acp-server/security/sandbox/command-sandbox";
import { detectWith, sandboxStatus, type DetectionProbes, type ProbeRun } from "../../acp-server/security/sandbox/detect";
import { probedStatus, probeShapeOnce, readShapeProbe, shapeProbeScript } from "../../acp-server/security/sandbox/shape-probe";
import { SANDBOX_EXEC } from "../../acp-server/security/sandbox/seatbelt";
import { sandboxSkip } from "../support/sandbox";
import { makeTempDirSync } from "../support/temp-dirs";

function probes(overrides: Partial<DetectionProbes> & { runs?: ProbeRun }): DetectionProbes & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    platform: "darwin",
    executable: () => true,
    findOnPath: () => "/usr/bin/bwrap",
    root: false,
    run: (file, args) => {
      calls.push([file, ...args]);
      return overrides.runs ?? { status: 0, stderr: "" };
    },
    calls,
    ...overrides,
  };
}

describe("detection: a sandbox program counts only if a probe ran inside it", () => {
  it("macOS: sandbox-exec that applies a profile is the sandbox, and it was really run with one", () => {
    const machine = probes({});
    assert.deepEqual(detectWith(machine), { kind: "seatbelt", program: SANDBOX_EXEC });
    assert.equal(machine.calls.length, 1);
    assert.equal(machine.calls[0]?.[0], SANDBOX_EXEC);
    assert.equal(machine.calls[0]?.[1], "-p");
    assert.match(machine.calls[0]?.[2] ?? "", /\(version 1\)/);
  });
  it("macOS: sandbox-exec that exists but cannot apply a profile is no sandbox, with its own words", () => {
    const detection = detectWith(probes({ runs: { status: 71, stderr: "sandbox-exec: sandbox_apply: Operation not permitted\n" } }));
    assert.equal(detection.kind, "none");
    assert.match(detection.problem ?? "", /cannot apply a profile here \(sandbox-exec: sandbox_apply: Operation not permitted\)/);
    const status = sandboxStatus("auto", detection);
    assert.equal(status.active, false);
    assert.match(status.reason, /Operation not permitted/);
    assert.equal(sandboxStatus("on", detection).refuse, true);
  });
  it("macOS: sandbox-exec that cannot start says why", () => {
    assert.match(detectWith(probes({ runs: { status: null, stderr: "", error: "spawnSync /usr/bin/sandbox-exec EACCES" } })).problem ?? "", /EACCES/);
  });
  it("macOS: no sandbox-exec, nothing run", () => {
    const machine = probes({ executable: () => false });
    assert.deepEqual(detectWith(machine), { kind: "none", problem: `${SANDBOX_EXEC} is missing` });
    assert.equal(machine.calls.length, 0);
  });
  it("Linux: a missing bwrap is named, with how to install it", () => {
    const detection = detectWith(probes({ platform: "linux", findOnPath: () => undefined }));
    assert.match(detection.problem ?? "", /bubblewrap \(bwrap\) is not installed \(apt-get install bubblewrap/);
    assert.match(sandboxStatus("auto", detection).reason, /not installed/);
  });
  it("Linux: a bwrap that cannot start a sandbox gives its exact failure", () => {
    const detection = detectWith(probes({ platform: "linux", runs: { status: 1, stderr: "bwrap: No permissions to creating new namespace\n" } }));
    assert.match(detection.problem ?? "", /bubblewrap cannot start a sandbox here \(bwrap: No permissions to creating new namespace\)/);
  });
});

describe("the session's probe", () => {
  const active = sandboxStatus("auto", { kind: "bwrap", program: "/usr/bin/bwrap" });
  it("a probe that passed keeps the sandbox active", () => assert.equal(probedStatus(active, { ok: true }, "auto").active, true));
  it("a failed probe: not active in auto, refused with on, and the reason is the exact failure", () => {
    const probe = readShapeProbe({ status: 1, stderr: "bwrap: Can't remount readonly on /newroot/tmp/home: Invalid argument\n" });
    const auto = probedStatus(active, probe, "auto");
    assert.equal(auto.active, false);
    assert.equal(auto.refuse, false);
    assert.match(auto.reason, /failed its probe run .*bwrap: Can't remount readonly on \/newroot\/tmp\/home/);
    const on = probedStatus(active, probe, "on");
    assert.equal(on.refuse, true);
    assert.match(on.reason, /terminal\.sandbox is on but .*Can't remount/);
  });
  it("a run that timed out is not kept: the next command probes again", () => {
    const policy = { writable: ["/w-transient"], readOnly: [], hidden: [], tmpDir: "/t-transient", network: { kind: "off" as const }, unixSockets: false };
    let runs = 0;
    const timedOut = () => (runs++, { status: null, stderr: "", error: "spawnSync /usr/bin/bwrap ETIMEDOUT" });
    assert.equal(probeShapeOnce(policy, timedOut).ok, false);
    assert.equal(probeShapeOnce(policy, () => (runs++, { status: 0, stderr: "" })).ok, true);
    assert.equal(probeShapeOnce(policy, timedOut).ok, true, "a passed probe is kept");
    assert.equal(runs, 2);
  });
  it("names each wall the probe found wrong", () => {
    const probe = readShapeProbe({ status: 1, stderr: "hermes-probe: /w is not writable\nhermes-probe: /h/.hermes is writable\n" });
    assert.equal(probe.problem, "inside the sandbox /w is not writable; /h/.hermes is writable");
  });
  it("the script checks the temp folder, each writable root and each read-only place", () => {
    const script = shapeProbeScript({ writable: ["/w"], readOnly: ["/h/.hermes", "/w/.git/hooks"], hidden: [], tmpDir: "/t", network: { kind: "off" }, unixSockets: false });
    assert.match(script, /test -w '\/w' \|\|/);
    assert.match(script, /\( : > '\/h\/\.hermes\/\.hermes-probe' \)/);
    assert.match(script, /\( : >> '\/w\/\.git\/hooks' \)/);
    assert.match(script, /TMPDIR/);
  });
});

describe("the probe script finds a missing wall (run bare, where nothing is read-only)", () => {
  it("a read-only place that takes a write is named, and the probe leaves it as it was", () => {
    const root = makeTempDirSync("hermes-probe-bare-", "/var/tmp");
    const folder = path.join(root, "state");
    const file = path.join(root, "config");
    mkdirSync(folder);
    writeFileSync(file, "kept\n");
    const script = shapeProbeScript({ writable: [root], readOnly: [folder, file], hidden: [], tmpDir: root, network: { kind: "off" }, unixSockets: false });
    const run = spawnSync("/bin/sh", ["-c", script], { encoding: "utf8" });
    const probe = readShapeProbe({ status: run.status, stderr: run.stderr });
    assert.equal(probe.ok, false);
    assert.equal(probe.problem, `inside the sandbox ${folder} is writable; ${file} is writable`);
    assert.deepEqual(readdirSync(folder), []);
    assert.equal(readFileSync(file, "utf8"), "kept\n");
  });
});

describe("the session's probe, for real", { skip: sandboxSkip() }, () => {
  const root = makeTempDirSync("hermes-probe-", "/var/tmp");
  const home = path.join(root, "home");
  mkdirSync(path.join(home, ".hermes"), { recursive: true });
  const sandboxFor = (roots: string[], key: string, mode: "auto" | "on" = "auto") =>
    new CommandSandbox({ mode, allowedDomains: [] }, () => ({ roots, readOnlyWorkspace: false, sessionKey: key, home, hermesHome: path.join(home, ".hermes") }));

  it("a workspace the sandbox can mount: active", () => {
    const workspace = path.join(root, "ok");
    mkdirSync(workspace);
    const status = sandboxFor([workspace], "probe-ok").status();
    assert.equal(status.active, true, status.reason);
  });
  it("a mount that fails for this session: not active, with bwrap's own message; refused with on", async () => {
    const gone = path.join(root, "gone");
    const status = sandboxFor([gone], "probe-gone").status();
    assert.equal(status.active, false);
    assert.match(status.reason, new RegExp(`failed its probe run.*bwrap: .*${gone}`));
    const strict = sandboxFor([gone], "probe-gone-on", "on");
    assert.equal(strict.status().refuse, true);
    await assert.rejects(strict.plan("/bin/sh", "true", "/"), /failed its probe run/);
  });
});
