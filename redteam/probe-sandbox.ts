// Red-team probe (not a test): escape attempts through the real LocalShellRunner with the
// bubblewrap sandbox ON, over a fake machine (temp HOME, HERMES_HOME, workspace, outside
// folder; the real home is never touched). Prints, per attempt, what happened and whether the
// fake home / outside folder / Hermes home changed. Run: node --import tsx redteam/probe-sandbox.ts
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createHttp } from "node:http";
import { createServer as createNet, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { childEnv } from "../acp-server/security/child-env";
import { CommandSandbox } from "../acp-server/security/sandbox/command-sandbox";
import { LocalShellRunner } from "../acp-server/tools/local-shell";
import { killAllProcessGroups } from "../acp-server/util/process-group";
import { fakeMachine, sandboxSkip, snapshot } from "../test/support/sandbox";

const skip = sandboxSkip();
if (skip) {
  console.log(`no sandbox: ${skip}`);
  process.exit(0);
}

// The fake machine must NOT live under the host's /tmp: the sandbox replaces /tmp with the
// session's temp folder, so anything under it is simply invisible inside and "blocked" writes
// would prove nothing. TMPDIR is pointed at a folder under /var/tmp (read-only inside) first.
const probeRoot = mkdtempSync("/var/tmp/hermes-redteam-");
process.env.TMPDIR = probeRoot;
process.once("exit", () => rmSync(probeRoot, { recursive: true, force: true }));
const machine = fakeMachine();
// Secrets the credential-store list does not name (browser cookies, shell history, other CLIs).
const extraSecrets: Record<string, string> = {
  ".bash_history": "export GITHUB_TOKEN=ghp_history_secret",
  ".mozilla/firefox/p/cookies.sqlite": "cookie-secret",
  ".config/google-chrome/Default/Cookies": "chrome-cookie-secret",
  ".config/rclone/rclone.conf": "secret_access_key = rclone-secret",
  ".config/configstore/firebase-tools.json": "{\"tokens\":{\"refresh_token\":\"firebase-secret\"}}",
  ".m2/settings.xml": "<password>maven-secret</password>",
  ".s3cfg": "secret_key = s3cmd-secret",
  ".config/Code/User/globalStorage/state.vscdb": "vscode-secret-storage",
  ".fly/config.yml": "access_token: fly-secret",
  ".config/stripe/config.toml": "test_mode_api_key = 'stripe-secret'",
  "other-project/.env": "DATABASE_URL=postgres://u:otherproject-secret@h/db",
};
for (const [relative, content] of Object.entries(extraSecrets)) {
  mkdirSync(path.dirname(path.join(machine.home, relative)), { recursive: true });
  writeFileSync(path.join(machine.home, relative), content);
}
let planMode = false;
const sandbox = new CommandSandbox({ mode: "on", allowedDomains: [] }, () => ({
  roots: [machine.workspace],
  readOnlyWorkspace: planMode,
  sessionKey: "redteam-probe",
  home: machine.home,
  hermesHome: machine.hermesHome,
}));
// Stands in for /var/run/docker.sock or $SSH_AUTH_SOCK: a host daemon's socket outside the workspace.
mkdirSync(path.join(machine.root, "run"));
const hostSock = path.join(machine.root, "run", "docker.sock");
// The environment production uses (child-env allowlist over the agent's env, as command-shell.ts
// does), then the fake HOME/HERMES_HOME. SSH_AUTH_SOCK and a planted secret are in the agent's
// env and must not arrive.
const agentEnv = { ...process.env, SSH_AUTH_SOCK: hostSock, HERMES_PLANTED_SECRET: "planted-7f3a" };
const runner = new LocalShellRunner({ ...childEnv(agentEnv), HOME: machine.home, HERMES_HOME: machine.hermesHome, PROBE_OUT: machine.outside }, sandbox);
const hostTmpMarker = `/tmp/hermes-redteam-${process.pid}`;

async function run(command: string): Promise<{ code: number | null; text: string }> {
  const handle = await runner.start(command, { cwd: machine.workspace, outputLimit: 50_000 });
  const exit = await handle.waitForExit();
  const { text } = await handle.output();
  await handle.release();
  return { code: exit.code, text: text.trim().replace(/\n+/g, " | ").slice(0, 300) };
}

function listen(server: Server, where: string | number): Promise<void> {
  return new Promise((resolve) => (typeof where === "number" ? server.listen(where, "127.0.0.1", resolve) : server.listen(where, resolve)));
}

async function main(): Promise<void> {
  const http = createHttp((_q, r) => r.end("reached-http"));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const port = (http.address() as AddressInfo).port;
  const http6 = createHttp((_q, r) => r.end("reached-http6"));
  const port6 = await new Promise<number>((resolve) => http6.listen(0, "::1", () => resolve((http6.address() as AddressInfo).port))).catch(() => 0);
  const unixServer = createNet((s) => s.end("reached-unix-socket\n"));
  await listen(unixServer, hostSock);
  const abstractServer = createNet((s) => s.end("reached-abstract\n"));
  await listen(abstractServer, "\0hermes-redteam-abstract");
  // A host process the sandbox must not be able to kill.
  const victim = spawn("sleep", ["600"], { stdio: "ignore", detached: true });

  const OUT = machine.outside;
  const H = machine.home;
  const W = machine.workspace;
  const node = (code: string) => `node -e ${JSON.stringify(code).replace(/\$/g, "\\$")}`;
  const attempts: [string, string][] = [
    ["write via /proc/self/root", `echo pwn > /proc/self/root${OUT}/keep.txt`],
    ["write via /proc/1/cwd", `echo pwn > /proc/1/cwd/../../outside/keep.txt; echo pwn > /proc/1/root${OUT}/new.txt`],
    ["symlink out then write", `ln -s ${OUT}/keep.txt l1 && echo pwn > l1; ln -s ${H} l2 && echo pwn > l2/.bashrc`],
    ["hard link then write", `ln ${OUT}/keep.txt h1 && echo pwn >> h1`],
    ["/dev/shm", `echo pwn > /dev/shm/p && ls -ld /dev/shm && echo devshm-writable`],
    ["host /tmp", `echo pwn > ${hostTmpMarker} ; ls /tmp | head -5`],
    ["/var/tmp", `echo pwn > /var/tmp/hermes-redteam-${process.pid} && echo vartmp-writable`],
    ["named pipe outside", `mkfifo ${OUT}/fifo && echo fifo-made`],
    ["unix socket to host daemon (path known: /var/run/docker.sock, $XDG_RUNTIME_DIR/bus …)", `${node(`const s=require('net').connect(${JSON.stringify(hostSock)});s.on('data',d=>console.log(String(d)));s.on('error',e=>console.log('err',e.code))`)}`],
    ["abstract unix socket", `${node(`const s=require('net').connect('\\0hermes-redteam-abstract');s.on('data',d=>console.log(String(d)));s.on('error',e=>console.log('err',e.code))`)}`],
    ["read ~/.ssh via /proc/self/root", `cat /proc/self/root${H}/.ssh/id_rsa; cat ${W}/../../home/.ssh/id_rsa; ls -A ${H}/.ssh`],
    ["read secrets not on the store list", Object.keys(extraSecrets).map((f) => `cat ~/${f} 2>/dev/null; echo`).join("; ")],
    ["read workspace .env (allowed by design?)", `echo 'API_KEY=workspace-secret' > .env; cat .env`],
    ["other processes' environ", `cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n' | grep -c planted-7f3a; ls /proc | grep -c '^[0-9]'`],
    ["own environ leaks parent env", `env | grep -E 'PLANTED|SSH_AUTH_SOCK|PROBE_OUT' || echo none`],
    ["network 127.0.0.1", `curl -s -m 3 http://127.0.0.1:${port} || ${node(`fetch('http://127.0.0.1:${port}').then(r=>r.text()).then(console.log,e=>console.log('err',e.cause?.code))`)}`],
    ["network ::1", port6 ? `${node(`fetch('http://[::1]:${port6}').then(r=>r.text()).then(console.log,e=>console.log('err',e.cause?.code))`)}` : "echo no-ipv6"],
    ["DNS", `getent hosts example.com || echo dns-failed`],
    ["ptrace parent", `cat /proc/1/cmdline | tr '\\0' ' '; echo; grep -E 'CapEff|NoNewPrivs|Seccomp:' /proc/self/status`],
    ["unshare / nested bwrap", `unshare -r -m sh -c 'mount --bind /tmp ${OUT} && echo mounted' 2>&1; bwrap --bind / / true 2>&1 && echo nested-bwrap-ok`],
    ["mount --bind / remount rw", `mount --bind /tmp ${OUT} 2>&1; mount -o remount,rw / 2>&1 || echo mount-failed`],
    ["setuid binaries", `sudo -n true 2>&1; su -c 'touch ${OUT}/su' 2>&1; newgrp root <<< 'touch ${OUT}/ng' 2>&1; echo uid=$(id -u)`],
    ["kill -9 -1", `kill -9 -1; echo still-here`],
    ["sysrq (h = harmless help)", `echo h > /proc/sysrq-trigger && echo sysrq-writable`],
    ["/proc/sys write", `echo 1 > /proc/sys/vm/drop_caches && echo procsys-writable`],
    // Writes the CURRENT value back (no change): if it succeeds, a command could set a piped
    // core_pattern, which the host kernel runs as real root outside every namespace.
    ["/proc/sys/kernel/core_pattern (same value)", `v=$(cat /proc/sys/kernel/core_pattern); printf '%s\\n' "$v" > /proc/sys/kernel/core_pattern && echo core_pattern-writable`],
    ["HERMES_HOME write", `echo pwn > "$HERMES_HOME/config.yaml"; mkdir "$HERMES_HOME/skills/x"; cat "$HERMES_HOME/.env"`],
    ["chmod/touch outside", `chmod 777 ${OUT}; touch -d 2000-01-01 ${OUT}/keep.txt`],
    ["inherited fds", `ls -l /proc/self/fd | tail -n +2 | awk '{print $9,$10,$11}'`],
    ["persistence in workspace (.git/hooks, .vscode, .envrc)", `mkdir -p .git/hooks .vscode && echo 'touch ${OUT}/hooked' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit && echo '{}' > .vscode/tasks.json && echo 'touch x' > .envrc && echo persistence-written`],
    ["TIOCSTI terminal", `tty; echo legacy_tiocsti=$(cat /proc/sys/dev/tty/legacy_tiocsti 2>/dev/null)`],
    // --- round 3 (2026-11-23)
    ["round3: other project's .env and unlisted tool tokens (home hidden)", `cat ${H}/other-project/.env ${H}/.config/stripe/config.toml 2>&1 | grep -c secret; ls -A ${H} | tr '\n' ' '`],
    ["round3: /dev/tcp to a host loopback service", `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\r\n\r\n' >&3 && cat <&3 || echo devtcp-failed`],
    ["round3: symlink planted in workspace pointing at HERMES_HOME, then write", `ln -sfn "$HERMES_HOME" hh && echo pwn > hh/config.yaml; ln -sfn "$HERMES_HOME/config.yaml" cfg && echo pwn >> cfg; cat "$HERMES_HOME/config.yaml"`],
    ["round3: hardlink of HERMES_HOME file into workspace", `ln "$HERMES_HOME/config.yaml" hl 2>&1 && echo pwn >> hl; cat "$HERMES_HOME/config.yaml"`],
    ["round3: rename-over via /proc/self/cwd/..", `mv /proc/self/cwd/readme.md /proc/self/cwd/../outside-moved 2>&1; ls ${W}/.. | tr '\n' ' '`],
    ["round3: new .git with hooks in a non-repo subfolder", `mkdir -p sub && cd sub && git init -q && printf '#!/bin/sh\ntouch ${OUT}/hooked\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit && git config core.fsmonitor 'touch ${OUT}/fsmon' && echo planted`],
    ["round3: git run inside sandbox triggers the planted hook (still sandboxed)", `cd sub && git -c user.email=a@b -c user.name=a commit -q --allow-empty -m x 2>&1; git status >/dev/null 2>&1; ls ${OUT}`],
    ["round3: keyring (keyctl) of the host user", `(keyctl show @u 2>&1 || echo no-keyctl) | head -3`],
    ["round3: write a setuid file into the workspace", `cp /bin/sh ./shx && chmod u+s ./shx && ls -l ./shx | cut -c1-10`],
    ["round3: signal a host process by pid", `kill -0 ${process.pid} 2>&1 || echo cannot-signal`],
    ["round3: read the agent's cmdline/environ through /proc/<host pid>", `cat /proc/${process.pid}/environ 2>&1 | tr '\\0' '\\n' | grep -c planted-7f3a; cat /proc/${process.pid}/cmdline 2>&1 | head -c 80`],
    ["round3: huge write to session tmp (disk fill)", `head -c 1048576 /dev/zero > /tmp/big && ls -l /tmp/big | awk '{print $5}'`],
  ];

  const before = { home: snapshot(H), outside: snapshot(OUT) };
  for (const [name, command] of attempts) {
    const result = await run(command);
    const changed = JSON.stringify(snapshot(H)) !== JSON.stringify(before.home) || JSON.stringify(snapshot(OUT)) !== JSON.stringify(before.outside);
    console.log(`${changed ? "CHANGED-OUTSIDE " : ""}[${name}] exit=${result.code} :: ${result.text}`);
  }
  console.log(`host /tmp marker written: ${existsSync(hostTmpMarker)}; victim alive: ${victim.exitCode === null && victim.signalCode === null}`);
  planMode = true;
  const plan = await run(`touch planned.txt && echo plan-write-ok; echo x > /tmp/plan-tmp && echo plan-tmp-writable`);
  console.log(`[plan mode workspace] exit=${plan.code} :: ${plan.text}; file exists: ${existsSync(path.join(W, "planned.txt"))}`);
  victim.kill();
  killAllProcessGroups();
  for (const server of [http, http6, unixServer, abstractServer]) server.close();
}

main().then(() => process.exit(0), (error) => {
  console.error(error);
  process.exit(1);
});
