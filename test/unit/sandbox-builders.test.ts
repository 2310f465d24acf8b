// The pure parts of the sandbox: bwrap argv, Seatbelt profile, status, blocked notes and the
// policy's answer to "run this outside the sandbox", as tables.
import assert from "node:assert/strict";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { sandboxBlockedNote } from "../../acp-server/security/sandbox/blocked-note";
import { bwrapArgs } from "../../acp-server/security/sandbox/bwrap";
import { sandboxStatus } from "../../acp-server/security/sandbox/detect";
import { networkPolicy, resolveSandboxPolicy, type SandboxPolicy } from "../../acp-server/security/sandbox/policy";
import { seatbeltProfile } from "../../acp-server/security/sandbox/seatbelt";
import { decidePermission } from "../../acp-server/security/permission-policy";
import type { SessionMode } from "../../acp-server/security/modes";
import { makeTempDirSync } from "../support/temp-dirs";

const policy: SandboxPolicy = {
  writable: ["/work/app"],
  readOnly: ["/home/u/.hermes"],
  hidden: [
    { path: "/home/u/.ssh", kind: "dir" },
    { path: "/home/u/.npmrc", kind: "file" },
  ],
  tmpDir: "/tmp/hermes-sandbox-1/s1",
  network: { kind: "off" },
  unixSockets: false,
};

/** The argv as pairs/triples after a flag, for order-insensitive checks where order does not matter. */
function indexOfSequence(args: string[], sequence: string[]): number {
  for (let i = 0; i + sequence.length <= args.length; i++) if (sequence.every((word, j) => args[i + j] === word)) return i;
  return -1;
}

const proc = { readOnly: ["/proc/sys", "/proc/sysrq-trigger"], masked: [{ path: "/proc/kcore", kind: "file" as const }, { path: "/proc/acpi", kind: "dir" as const }] };

describe("bwrapArgs", () => {
  const argv = bwrapArgs(policy, { root: false, cwd: "/work/app/src", command: ["/bin/bash", "-c", "ls -la"], proc });

  const present: [string, string[]][] = [
    ["whole host read-only", ["--ro-bind", "/", "/"]],
    ["own PID namespace and /proc", ["--unshare-pid", "--proc", "/proc"]],
    ["dies with Hermes", ["--die-with-parent"]],
    ["/proc/sys read-only (as root it reaches the host kernel)", ["--ro-bind", "/proc/sys", "/proc/sys"]],
    ["/proc/sysrq-trigger read-only", ["--ro-bind", "/proc/sysrq-trigger", "/proc/sysrq-trigger"]],
    ["/proc/kcore masked", ["--ro-bind", "/dev/null", "/proc/kcore"]],
    ["/proc/acpi masked", ["--tmpfs", "/proc/acpi", "--remount-ro", "/proc/acpi"]],
    ["no network when off", ["--unshare-net"]],
    ["session temp folder as /tmp", ["--bind", "/tmp/hermes-sandbox-1/s1", "/tmp"]],
    ["workspace writable", ["--bind", "/work/app", "/work/app"]],
    ["$HERMES_HOME read-only", ["--ro-bind", "/home/u/.hermes", "/home/u/.hermes"]],
    ["hidden folder: empty read-only tmpfs", ["--tmpfs", "/home/u/.ssh", "--remount-ro", "/home/u/.ssh"]],
    ["hidden file: /dev/null over it", ["--ro-bind", "/dev/null", "/home/u/.npmrc"]],
    ["TMPDIR", ["--setenv", "TMPDIR", "/tmp"]],
    ["cwd", ["--chdir", "/work/app/src"]],
    ["the command last", ["--", "/bin/bash", "-c", "ls -la"]],
  ];
  for (const [what, sequence] of present) {
    it(what, () => assert.notEqual(indexOfSequence(argv, sequence), -1, `${sequence.join(" ")} in ${argv.join(" ")}`));
  }

  it("mounts in order: host, temp, writable, read-only, hidden (later mounts win)", () => {
    const order = [["--ro-bind", "/", "/"], ["--bind", "/tmp/hermes-sandbox-1/s1"], ["--bind", "/work/app"], ["--ro-bind", "/home/u/.hermes"], ["--tmpfs", "/home/u/.ssh"], ["--"]].map((sequence) =>
      indexOfSequence(argv, sequence),
    );
    assert.deepEqual([...order].sort((a, b) => a - b), order);
  });

  it("pins a repository's .git after the writable roots and before the read-only mounts inside it", () => {
    const pinned = bwrapArgs({ ...policy, pinned: ["/work/app/.git"], readOnly: ["/work/app/.git/hooks"] }, { root: false, cwd: "/work/app", command: ["true"], proc });
    const order = [["--bind", "/work/app", "/work/app"], ["--bind", "/work/app/.git", "/work/app/.git"], ["--ro-bind", "/work/app/.git/hooks", "/work/app/.git/hooks"]].map((sequence) => indexOfSequence(pinned, sequence));
    assert.ok(order.every((index) => index >= 0), pinned.join(" "));
    assert.deepEqual([...order].sort((a, b) => a - b), order);
  });

  it("sets a chat worktree's git object folders in the command's environment, before the command", () => {
    const env = { GIT_OBJECT_DIRECTORY: "/repo/.git/worktrees/chat/objects", GIT_ALTERNATE_OBJECT_DIRECTORIES: "/repo/.git/objects" };
    const args = bwrapArgs({ ...policy, env }, { root: false, cwd: "/work/app", command: ["true"], proc });
    for (const [name, value] of Object.entries(env)) assert.ok(indexOfSequence(args, ["--setenv", name, value]) >= 0 && indexOfSequence(args, ["--setenv", name, value]) < args.indexOf("--"), name);
  });

  it("locks /proc only after mounting it (an earlier bind would be covered)", () =>
    assert.ok(indexOfSequence(argv, ["--proc", "/proc"]) < indexOfSequence(argv, ["--ro-bind", "/proc/sys", "/proc/sys"])));

  it("keeps the command in Hermes's process group (no --new-session)", () => assert.equal(argv.includes("--new-session"), false));

  const variants: [string, Partial<SandboxPolicy>, boolean, (args: string[]) => boolean][] = [
    ["root drops every capability", {}, true, (args) => indexOfSequence(args, ["--cap-drop", "ALL"]) !== -1],
    ["non-root adds no cap flags", {}, false, (args) => !args.includes("--cap-drop")],
    ["network on keeps the host network", { network: { kind: "on" } }, false, (args) => !args.includes("--unshare-net")],
    [
      "allowlist: no network namespace access, the proxy socket bound in",
      { network: { kind: "allowlist", domains: ["example.com"], proxySocket: "/run/hp/proxy.sock" } },
      false,
      (args) => args.includes("--unshare-net") && indexOfSequence(args, ["--ro-bind", "/run/hp", "/tmp/.hermes-proxy"]) !== -1,
    ],
    ["plan mode: workspace only read-only", { writable: [], readOnly: ["/work/app"] }, false, (args) => indexOfSequence(args, ["--ro-bind", "/work/app", "/work/app"]) !== -1 && indexOfSequence(args, ["--bind", "/work/app"]) === -1],
  ];
  for (const [what, change, root, check] of variants) {
    it(what, () => assert.ok(check(bwrapArgs({ ...policy, ...change }, { root, cwd: "/work/app", command: ["true"], proc }))));
  }
});

describe("seatbeltProfile", () => {
  it("forbids writes except the writable places, forbids the read-only ones and hides credentials", () => {
    assert.equal(
      seatbeltProfile(policy),
      [
        "(version 1)",
        "(allow default)",
        "(deny file-write*)",
        '(allow file-write* (subpath "/work/app") (subpath "/tmp/hermes-sandbox-1/s1") (literal "/dev/null") (literal "/dev/zero") (regex #"^/dev/fd/") (regex #"^/dev/tty"))',
        '(deny file-write* (subpath "/home/u/.hermes"))',
        '(deny file-read* file-write* (subpath "/home/u/.ssh") (literal "/home/u/.npmrc"))',
        "(deny network*)",
        "",
      ].join("\n"),
    );
  });

  const network: [string, SandboxPolicy["network"], string[], string[]][] = [
    ["on: no network rule", { kind: "on" }, [], ["(deny network*)"]],
    ["allowlist: only the proxy's port", { kind: "allowlist", domains: ["a.com"], proxyPort: 4100 }, ["(deny network*)", '(allow network-outbound (remote ip "localhost:4100"))'], []],
  ];
  for (const [what, net, has, hasNot] of network) {
    it(what, () => {
      const profile = seatbeltProfile({ ...policy, network: net });
      for (const line of has) assert.ok(profile.includes(line), line);
      for (const line of hasNot) assert.ok(!profile.includes(line), line);
    });
  }

  it("forbids renaming or replacing a pinned .git itself (not what is in it)", () => {
    const profile = seatbeltProfile({ ...policy, pinned: ["/work/app/.git"] });
    assert.ok(profile.includes('(deny file-write* (literal "/work/app/.git"))'), profile);
  });

  it("quotes paths so a quote in a folder name cannot end the string", () => {
    const profile = seatbeltProfile({ ...policy, writable: ['/work/a"b\\c'], readOnly: [], hidden: [] });
    assert.ok(profile.includes('(subpath "/work/a\\"b\\\\c")'), profile);
  });
});

describe("networkPolicy", () => {
  const table: [string[], SandboxPolicy["network"]][] = [
    [[], { kind: "off" }],
    [["*"], { kind: "on" }],
    [["Example.com", "example.com", "*.npmjs.org"], { kind: "allowlist", domains: ["example.com", "*.npmjs.org"] }],
  ];
  for (const [domains, expected] of table) it(JSON.stringify(domains), () => assert.deepEqual(networkPolicy(domains), expected));
});

describe("sandboxStatus", () => {
  const table: [string, Parameters<typeof sandboxStatus>, Partial<ReturnType<typeof sandboxStatus>>][] = [
    ["auto with bwrap: active", ["auto", { kind: "bwrap", program: "/usr/bin/bwrap" }], { active: true, available: true, kind: "bwrap", refuse: false }],
    ["auto without: runs bare, says so", ["auto", { kind: "none", problem: "bwrap is not installed" }], { active: false, available: false, refuse: false }],
    ["on without: refuses", ["on", { kind: "none", problem: "bwrap is not installed" }], { active: false, refuse: true }],
    ["off: never active", ["off", { kind: "bwrap", program: "/usr/bin/bwrap" }], { active: false, kind: "none", refuse: false }],
    ["macOS", ["auto", { kind: "seatbelt", program: "/usr/bin/sandbox-exec" }], { active: true, kind: "seatbelt" }],
  ];
  for (const [what, args, expected] of table) {
    it(what, () => {
      const status = sandboxStatus(...args);
      for (const [key, value] of Object.entries(expected)) assert.equal(status[key as keyof typeof status], value, key);
      assert.ok(status.reason.length > 10);
    });
  }
  it("the refusal names the fix", () => assert.match(sandboxStatus("on", { kind: "none", problem: "bubblewrap (bwrap) is not installed" }).reason, /terminal\.sandbox.*refused.*install/is));
});

describe("sandboxBlockedNote", () => {
  const table: [string, string, RegExp | undefined][] = [
    ["bash redirect", "/bin/bash: line 1: /etc/x: Read-only file system", /blocked writing \/etc\/x: only the workspace \(\/work\/app\)/],
    ["touch", "touch: cannot touch '/usr/local/bin/tool': Read-only file system", /blocked writing \/usr\/local\/bin\/tool/],
    ["node EROFS", "Error: EROFS: read-only file system, open '/etc/hosts'", /blocked writing \/etc\/hosts/],
    ["relative write", "bash: line 1: out.txt: Read-only file system", /blocked writing out\.txt/],
    ["hidden key", "cat: /home/u/.ssh/id_rsa: No such file or directory", /hid \/home\/u\/.ssh\/id_rsa/],
    ["hidden file", "cat: /home/u/.npmrc: Permission denied", /hid \/home\/u\/.npmrc/],
    ["curl", "curl: (6) Could not resolve host: example.com", /network connection: commands have no network/],
    ["npm", "npm error code EAI_AGAIN\nnpm error errno EAI_AGAIN request to https://registry.npmjs.org/x failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org", /network/],
    ["the host's /tmp", "bash: /tmp/other/x.txt: No such file or directory", /does not show \/tmp\/other\/x\.txt: inside it, \/tmp is this session's own temp folder/],
    ["an ordinary failure", "Error: Cannot find module 'left-pad'", undefined],
    ["a missing file in the workspace", "cat: /work/app/nope.txt: No such file or directory", undefined],
    ["a test failure", "1 failing\n  AssertionError: expected 1 to equal 2", undefined],
  ];
  for (const [what, output, expected] of table) {
    it(what, () => {
      const note = sandboxBlockedNote(output, policy);
      if (expected) assert.match(note ?? "", expected);
      else assert.equal(note, undefined);
    });
  }
  it("a local server another command started: says each command has its own loopback", () => {
    assert.match(sandboxBlockedNote("curl: (7) Failed to connect to localhost port 3000 after 0 ms: Couldn't connect to server", policy) ?? "", /own network namespace.*same command/);
  });
  it("a proxy refusal through curl names the allowlist", () => {
    const allowlist = { ...policy, network: { kind: "allowlist" as const, domains: ["registry.npmjs.org"] } };
    assert.match(sandboxBlockedNote("curl: (56) CONNECT tunnel failed, response 403", allowlist) ?? "", /only registry\.npmjs\.org are reachable, through an HTTP proxy/);
  });
  it("with the network on, connection errors are not blamed on the sandbox", () => {
    assert.equal(sandboxBlockedNote("curl: (7) Failed to connect to localhost port 3000", { ...policy, network: { kind: "on" } }), undefined);
  });
  it("moving a pinned .git aside: says the sandbox keeps it in place", () => {
    const note = sandboxBlockedNote("mv: cannot move '.git' to 'aside': Device or resource busy", { ...policy, pinned: ["/work/app/.git"] });
    assert.match(note ?? "", /keeps the repository's \.git folder/);
  });
  it("every note offers the way out", () => assert.match(sandboxBlockedNote("/bin/sh: /etc/x: Read-only file system", policy) ?? "", /unsandboxed: true and a reason; the user is asked/));
});

describe("running a command outside the sandbox (permission policy)", () => {
  const ask = { action: "execute" as const, title: "$ make install", command: "make install", paths: ["/work/app"], unsandboxed: true, unsandboxedReason: "installs into /usr/local" };
  const table: [SessionMode, "deny" | "ask"][] = [
    ["dont_ask", "deny"],
    ["plan", "deny"],
    ["default", "ask"],
    ["accept_edits", "ask"],
  ];
  for (const [mode, decision] of table) {
    it(`${mode}: ${decision}`, () => {
      const verdict = decidePermission(mode, ask, "/work/app", "/home/u", { sandboxed: true });
      assert.equal(verdict.decision, decision);
      if (decision === "ask") {
        assert.equal(verdict.sensitive, true, "never covered by a remembered approval");
        assert.match(verdict.reasons.join(" "), /OUTSIDE the OS sandbox.*installs into \/usr\/local/);
      }
    });
  }
  it("a command refused anyway stays refused", () => {
    assert.equal(decidePermission("default", { ...ask, command: "rm -rf /" }, "/work/app", "/home/u").decision, "deny");
  });
});

describe("resolveSandboxPolicy: a workspace repository's hooks and config", () => {
  const make = (submodules: number, extra: (git: string, workspace: string) => void = () => {}, readOnlyWorkspace = false) => {
    const workspace = makeTempDirSync("hermes-git-policy-");
    mkdirSync(path.join(workspace, ".git", "hooks"), { recursive: true });
    writeFileSync(path.join(workspace, ".git", "config"), "");
    for (let i = 0; i < submodules; i++) {
      // A submodule named "lib/m<i>": the slash is a folder level without HEAD.
      const module = path.join(workspace, ".git", "modules", "lib", `m${i}`);
      mkdirSync(path.join(module, "hooks"), { recursive: true });
      writeFileSync(path.join(module, "config"), "");
      writeFileSync(path.join(module, "HEAD"), "");
    }
    extra(path.join(workspace, ".git"), workspace);
    const policy = resolveSandboxPolicy({ roots: [workspace], readOnlyWorkspace, home: "/nonexistent", hermesHome: "/nonexistent/.hermes", tmpDir: workspace, allowedDomains: [] });
    return { git: realpathSync(path.join(workspace, ".git")), workspace: realpathSync(workspace), readOnly: policy.readOnly, pinned: policy.pinned };
  };

  it("pins .git and mounts .git/hooks and .git/config read-only, and those of a submodule", () => {
    const { git, readOnly, pinned } = make(1);
    assert.deepEqual(pinned, [git]);
    assert.deepEqual(readOnly, ["hooks", "config", "modules/lib/m0/hooks", "modules/lib/m0/config"].map((part) => path.join(git, part)));
  });

  it("with many submodules, all of .git/modules is read-only instead of one mount each", () => {
    const { git, readOnly } = make(40);
    assert.deepEqual(readOnly, ["hooks", "config", "modules"].map((part) => path.join(git, part)));
  });

  it("also commondir, gitdir, config.worktree and info/, a worktree's files, and the checkouts' gitfiles", () => {
    const { git, workspace, readOnly } = make(0, (dotGit, root) => {
      for (const file of ["commondir", "config.worktree"]) writeFileSync(path.join(dotGit, file), "x");
      mkdirSync(path.join(dotGit, "info"));
      mkdirSync(path.join(dotGit, "worktrees", "w"), { recursive: true });
      mkdirSync(path.join(root, "w"));
      writeFileSync(path.join(root, "w", ".git"), `gitdir: ${path.join(dotGit, "worktrees", "w")}\n`);
      writeFileSync(path.join(dotGit, "worktrees", "w", "gitdir"), `${path.join(root, "w", ".git")}\n`);
      writeFileSync(path.join(dotGit, "worktrees", "w", "commondir"), "../..\n");
    });
    assert.deepEqual(readOnly, [...["hooks", "config", "config.worktree", "commondir", "info", "worktrees/w/commondir", "worktrees/w/gitdir"].map((part) => path.join(git, part)), path.join(workspace, "w", ".git")]);
  });

  it("a gitfile at the root is read-only itself; nothing is pinned in plan mode", () => {
    const root = makeTempDirSync("hermes-git-policy-file-");
    const real = path.join(root, "elsewhere.git");
    mkdirSync(path.join(real, "hooks"), { recursive: true });
    writeFileSync(path.join(root, ".git"), `gitdir: ${real}\n`);
    const policy = resolveSandboxPolicy({ roots: [root], readOnlyWorkspace: false, home: "/nonexistent", hermesHome: "/nonexistent/.hermes", tmpDir: root, allowedDomains: [] });
    const gitfile = path.join(realpathSync(root), ".git");
    assert.ok(policy.readOnly.includes(gitfile), policy.readOnly.join(" "));
    assert.ok(policy.readOnly.includes(path.join(realpathSync(real), "hooks")), "the folder it names, inside the workspace, is protected too");
    assert.equal(make(1, undefined, true).pinned, undefined, "plan mode: the workspace is read-only, nothing bound writable");
  });
});
