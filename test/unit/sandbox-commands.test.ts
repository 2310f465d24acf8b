// The OS sandbox really stops what it must: commands run through LocalShellRunner with a
// session sandbox over a fake home and workspace under a temp folder, and try to do harm.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from "node:net";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { ChildServices } from "../../acp-server/acp/child-agent/child-services";
import { CommandSandbox } from "../../acp-server/security/sandbox/command-sandbox";
import { LocalFileAccess } from "../../acp-server/tools/local-files";
import type { RunningCommand } from "../../acp-server/tools/context";
import { LocalShellRunner } from "../../acp-server/tools/local-shell";
import { killAllProcessGroups } from "../../acp-server/util/process-group";
import { importWorktreeObjects } from "../../acp-server/security/worktree-objects";
import { BLOCKED_WRITE, fakeMachine, sandboxSkip, snapshot } from "../support/sandbox";
import { makeTempDirSync } from "../support/temp-dirs";
import { commandOutputMatching } from "../support/wait";

const PLANTED = "planted-agent-secret-7f3a";

describe("commands in the OS sandbox (bubblewrap)", { skip: sandboxSkip() }, () => {
  const machine = fakeMachine();
  let planMode = false;
  const roots = [machine.workspace];
  const sandbox = new CommandSandbox({ mode: "on", allowedDomains: [] }, () => ({
    roots: [...roots],
    readOnlyWorkspace: planMode,
    sessionKey: "sandbox-test",
    home: machine.home,
    hermesHome: machine.hermesHome,
  }));
  const runner = new LocalShellRunner({ ...process.env, HOME: machine.home, HERMES_HOME: machine.hermesHome }, sandbox);
  const started: RunningCommand[] = [];
  let server: Server;
  let port = 0;

  before(async () => {
    // The agent's own environment holds a secret the command must not find through /proc.
    process.env.HERMES_PLANTED_SECRET = PLANTED;
    server = createServer((_request, response) => response.end("reached"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    delete process.env.HERMES_PLANTED_SECRET;
    for (const handle of started) await handle.release();
    killAllProcessGroups();
    await new Promise((resolve) => server.close(resolve));
  });

  async function run(command: string, cwd = machine.workspace) {
    const handle = await runner.start(command, { cwd, outputLimit: 100_000 });
    started.push(handle);
    const exit = await handle.waitForExit();
    const { text } = await handle.output();
    return { exit, text, note: handle.sandboxNote?.(text) };
  }

  it("reports itself active", () => {
    assert.equal(runner.sandboxed(), true);
    assert.equal(sandbox.status().kind, "bwrap");
  });

  it("lets normal work in the workspace happen: files, node, git, the temp folder", async () => {
    const result = await run(
      [
        "set -e",
        "echo one > a.txt && echo two >> a.txt && sed -i 's/one/uno/' a.txt && cat a.txt",
        "mkdir -p src/lib && mv a.txt src/lib/ && rm src/lib/a.txt && rmdir src/lib",
        "node -e 'console.log(\"node\", 6 * 7)'",
        "git init -q . && git -c user.email=t@t -c user.name=t commit -q --allow-empty -m init && git log --oneline | wc -l",
        "echo scratch > /tmp/scratch.txt && mktemp -d >/dev/null && echo tmp-ok",
      ].join("\n"),
    );
    assert.equal(result.exit.code, 0, result.text);
    assert.match(result.text, /uno\ntwo/);
    assert.match(result.text, /node 42/);
    assert.match(result.text, /^1$/m);
    assert.match(result.text, /tmp-ok/);
    assert.ok(existsSync(path.join(machine.workspace, ".git", "HEAD")));
    // The session's temp folder outlives one command.
    assert.equal((await run("cat /tmp/scratch.txt")).text, "scratch\n");
  });

  it("blocks rm -rf and writes outside the workspace, and says what it blocked", async () => {
    const before = { home: snapshot(machine.home), outside: snapshot(machine.outside) };
    const result = await run(
      `rm -rf ${machine.outside} ${machine.home}/notes.txt; echo x > /etc/hermes-sandbox-probe; echo y > ${machine.home}/new.txt; touch ${machine.outside}/new`,
    );
    assert.notEqual(result.exit.code, 0);
    // Refused by read-only mounts over paths the command can see, not "No such file".
    assert.match(result.text, new RegExp(`cannot remove '${machine.outside}[^']*': ${BLOCKED_WRITE.source}`));
    assert.match(result.text, new RegExp(`${machine.home}/new\\.txt: ${BLOCKED_WRITE.source}`));
    assert.doesNotMatch(result.text, /No such file or directory/);
    assert.deepEqual(snapshot(machine.home), before.home);
    assert.deepEqual(snapshot(machine.outside), before.outside);
    assert.equal(existsSync("/etc/hermes-sandbox-probe"), false);
    assert.match(result.note ?? "", /The sandbox blocked writing \/.+: only the workspace \(.*project\)/);
  });

  it("hides credential stores: ~/.ssh/id_rsa, ~/.aws, ~/.npmrc, $HERMES_HOME/.env, histories, browser and editor secrets cannot be read", async () => {
    const result = await run(
      `cat ~/.ssh/id_rsa; cat ~/.aws/credentials; cat ~/.npmrc; cat "$HERMES_HOME/.env"; cat ~/.bash_history ~/.mozilla/firefox/*/cookies.sqlite ~/.config/Code/User/globalStorage/state.vscdb; ls -A ~/.ssh | wc -l`,
    );
    assert.doesNotMatch(result.text, /secret/);
    assert.match(result.text, /^0$/m, "the hidden folder looks empty");
    assert.match(result.note ?? "", /The sandbox hid .*: credential stores are not readable/);
    // The files themselves are untouched.
    assert.match(readFileSync(path.join(machine.home, ".ssh", "id_rsa"), "utf8"), /secret-key-material/);
  });

  it("keeps $HERMES_HOME read-only: config, memory and skills cannot be changed by a command", async () => {
    const before = snapshot(machine.hermesHome);
    const result = await run(`echo "model: evil" > "$HERMES_HOME/config.yaml"; mkdir "$HERMES_HOME/skills"; rm -f "$HERMES_HOME/.env"`);
    assert.notEqual(result.exit.code, 0);
    assert.deepEqual(snapshot(machine.hermesHome), before);
  });

  it("keeps the host kernel's knobs read-only and its state masked (/proc/sys, sysrq, keys)", async () => {
    // Harmless values if the guard ever failed: drop_caches 1 only drops clean caches, sysrq h prints help.
    const result = await run(
      [
        "echo 1 > /proc/sys/vm/drop_caches && echo drop-caches-written",
        'v=$(cat /proc/sys/kernel/core_pattern); printf "%s\\n" "$v" > /proc/sys/kernel/core_pattern && echo core-pattern-written',
        "[ -e /proc/sysrq-trigger ] && { echo h > /proc/sysrq-trigger && echo sysrq-written; }",
        "[ -e /proc/keys ] && echo keys=$(wc -c < /proc/keys)",
        "true",
      ].join("\n"),
    );
    assert.doesNotMatch(result.text, /-written/);
    assert.match(result.text, /drop_caches: Read-only file system/);
    assert.match(result.text, /core_pattern: Read-only file system/);
    if (existsSync("/proc/sysrq-trigger")) assert.match(result.text, /sysrq-trigger: Read-only file system/);
    if (existsSync("/proc/keys")) assert.match(result.text, /^keys=0?$/m, "masked: empty or unreadable");
  });

  it("runs in its own PID namespace: no /proc/<pid>/environ of the agent", async () => {
    // Each count on a line of its own, named: cat's complaint goes to stderr, which may arrive after them.
    const result = await run(`echo "ppid=$PPID"; cat /proc/${process.pid}/environ; echo "carriers=$(cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n' | grep -c HERMES_PLANTED_SECRET)"; echo "processes=$(ls /proc | grep -c '^[0-9]')"`);
    assert.doesNotMatch(result.text, new RegExp(PLANTED));
    assert.match(result.text, /^carriers=0$/m, "no process in the sandbox carries the planted variable");
    // Only the sandbox's own few processes exist in its /proc.
    const processes = Number(/^processes=(\d+)$/m.exec(result.text)?.[1]);
    assert.ok(processes < 10, `saw ${processes} processes: ${result.text}`);
  });

  it("has no network by default: a server on 127.0.0.1 cannot be reached", async () => {
    const reach = `node -e "require('http').get('http://127.0.0.1:${port}', (r) => { r.on('data', (d) => console.log(String(d))) }).on('error', (e) => { console.error('failed:', e.message); process.exit(3) })"`;
    const inside = await run(reach);
    assert.equal(inside.exit.code, 3, inside.text);
    assert.doesNotMatch(inside.text, /reached/);
    assert.match(inside.note ?? "", /network/);
    // The same command outside the sandbox does reach it (the test server works).
    const handle = await runner.start(reach, { cwd: machine.workspace, outputLimit: 10_000, unsandboxed: true });
    started.push(handle);
    assert.equal((await handle.waitForExit()).code, 0);
    assert.match((await handle.output()).text, /reached/);
  });

  it("keeps the workspace's .git/hooks and .git/config read-only (git runs them later, unsandboxed)", async () => {
    const repo = path.join(machine.workspace, "repo");
    mkdirSync(repo, { recursive: true });
    const init = await run("git init -q . && git -c user.email=t@t -c user.name=t commit -q --allow-empty -m init && echo ready", repo);
    assert.match(init.text, /ready/);
    // The policy is read at each command: from now on this repo is a workspace root with a .git.
    roots.push(repo);
    try {
      const before = snapshot(path.join(repo, ".git", "hooks"));
      const config = readFileSync(path.join(repo, ".git", "config"), "utf8");
      const result = await run(
        [
          "echo 'touch /tmp/pwned' > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit",
          "echo '[core] fsmonitor = touch /tmp/pwned' >> .git/config",
          "git config core.pager evil",
          "git -c user.email=t@t -c user.name=t commit -q --allow-empty -m work && git checkout -q -b topic && echo git-works",
        ].join("\n"),
        repo,
      );
      assert.match(result.text, /\.git\/hooks\/pre-commit: Read-only file system/);
      assert.match(result.text, /could not (write|lock) config file/);
      assert.match(result.text, /git-works/, "ordinary git work still happens");
      assert.deepEqual(snapshot(path.join(repo, ".git", "hooks")), before);
      assert.equal(readFileSync(path.join(repo, ".git", "config"), "utf8"), config);
      assert.match(result.note ?? "", /read-only: git runs what they say later/);
    } finally {
      roots.pop();
    }
  });

  it("pins .git as its own mount: it cannot be moved aside and copied back with fresh hooks, and git commit still works", async () => {
    const repo = path.join(machine.workspace, "pinned");
    mkdirSync(repo, { recursive: true });
    const setup = [
      "git init -q . && git -c user.email=t@t -c user.name=t commit -q --allow-empty -m init",
      // A submodule with its own git folder, and a linked worktree's gitfile inside the workspace.
      "git init -q ../subsrc && git -C ../subsrc -c user.email=t@t -c user.name=t commit -q --allow-empty -m s",
      "git -c protocol.file.allow=always submodule add -q ../subsrc lib >/dev/null 2>&1 && git -c user.email=t@t -c user.name=t commit -q -m sub",
      "git worktree add -q wt 2>/dev/null && echo ready",
    ].join(" && ");
    assert.match((await run(setup, repo)).text, /ready/);
    roots.push(repo);
    try {
      const hooks = snapshot(path.join(repo, ".git", "hooks"));
      const gitfiles = [path.join(repo, "lib", ".git"), path.join(repo, "wt", ".git")].map((file) => readFileSync(file, "utf8"));
      const attempts = [
        "mv .git aside 2>&1 || echo no-move",
        "mv .git/hooks .git/hooks-old 2>&1 || echo no-hooks-move",
        "echo /tmp/x > .git/commondir-planted 2>&1; echo x > .git/info/attributes 2>&1 || echo no-attributes",
        "echo 'touch /tmp/pwned' > .git/modules/lib/hooks/post-checkout 2>&1 || echo no-module-hook",
        "git config -f .git/modules/lib/config core.fsmonitor 'touch /tmp/pwned' 2>&1 || echo no-module-config",
        "echo 'gitdir: /tmp/evil' > lib/.git 2>&1 || echo no-gitfile",
        "mv wt/.git wt/gitfile-old 2>&1 || echo no-worktree-gitfile",
        "echo more >> readme 2>/dev/null; git -c user.email=t@t -c user.name=t commit -q --allow-empty -m inside && git log --oneline | wc -l",
        // Last: emptying .git destroys history (no plant), but the folder and its settings stay.
        "rm -rf .git 2>/dev/null; test -f .git/config && test -f .git/hooks/pre-commit.sample && echo still-there",
      ].join("\n");
      const result = await run(attempts, repo);
      for (const refusal of ["no-move", "no-hooks-move", "still-there", "no-attributes", "no-module-hook", "no-module-config", "no-gitfile", "no-worktree-gitfile"]) {
        assert.match(result.text, new RegExp(`^${refusal}$`, "m"), `${refusal} in ${result.text}`);
      }
      assert.match(result.text, /^\s*3$/m, "git commit works inside the sandbox");
      assert.match(result.note ?? "", /The sandbox keeps/, "the model is told why");
      assert.deepEqual(snapshot(path.join(repo, ".git", "hooks")), hooks);
      assert.deepEqual([path.join(repo, "lib", ".git"), path.join(repo, "wt", ".git")].map((file) => readFileSync(file, "utf8")), gitfiles);
      assert.equal(existsSync(path.join(repo, "aside")), false);
    } finally {
      roots.pop();
    }
  });

  for (const where of ["outside", "home", "tmp"] as const)
  it(`lets a chat's own worktree (branch hermes/…) commit while the main repository's hooks, config and other refs stay read-only (repository in the ${where} folder)`, async () => {
    // As Hermes makes one: the main repository outside the workspace, the worktree is the workspace.
    // In the home folder, which the sandbox hides: its .git must be shown (read-only) for git to run.
    // Under the host's /tmp, which the sandbox replaces with its own: the repository must be shown there.
    const main = path.join(where === "home" ? path.join(machine.home, "code") : where === "tmp" ? makeTempDirSync("hermes-test-tmp-repo-", "/tmp") : machine.outside, "main-repo");
    const worktree = path.join(path.dirname(machine.workspace), `chat-worktree-${where}`);
    const other = path.join(path.dirname(machine.workspace), `user-worktree-${where}`);
    const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd, encoding: "utf8" }).trim();
    mkdirSync(main, { recursive: true });
    git(main, "init", "-q", "-b", "main");
    git(main, "commit", "-q", "--allow-empty", "-m", "init");
    // The commit inside takes its author from the repository's config: git must be able to read it.
    git(main, "config", "user.name", "repo-author");
    git(main, "config", "user.email", "repo@author");
    git(main, "worktree", "add", "-q", "-b", "hermes/ab12-session", worktree);
    git(main, "worktree", "add", "-q", "-b", "mine", other);
    const mainHead = git(main, "rev-parse", "main");
    const config = readFileSync(path.join(main, ".git", "config"), "utf8");
    roots.push(worktree);
    try {
      const result = await run(
        [
          "echo work > work.txt && git add work.txt && git commit -q -m work && echo committed",
          `echo 'touch /tmp/pwned' > ${main}/.git/hooks/pre-commit 2>/dev/null || echo no-hook`,
          `git config -f ${main}/.git/config core.pager evil 2>/dev/null || echo no-config`,
          "git update-ref refs/heads/main HEAD 2>/dev/null || echo no-main-ref",
          `echo /tmp > ${main}/.git/worktrees/chat-worktree-${where}/commondir 2>/dev/null || echo no-commondir`,
        ].join("\n"),
        worktree,
      );
      for (const line of ["committed", "no-hook", "no-config", "no-main-ref", "no-commondir"]) assert.match(result.text, new RegExp(`^${line}$`, "m"), `${line} in ${result.text}`);
      // The commit's objects are in the worktree's private object folder: Hermes brings them in (the terminal tool does after each command).
      assert.deepEqual(await importWorktreeObjects(worktree), { found: 3, dropped: [] });
      assert.equal(git(main, "log", "-1", "--format=%s %an", "hermes/ab12-session"), "work repo-author", "the commit landed on the chat's branch");
      assert.equal(git(main, "rev-parse", "main"), mainHead);
      assert.equal(readFileSync(path.join(main, ".git", "config"), "utf8"), config);
      assert.equal(existsSync(path.join(main, ".git", "hooks", "pre-commit")), false);
    } finally {
      roots.pop();
    }
    // A worktree on a branch of the user's own is not opened: its commit is refused as before.
    roots.push(other);
    try {
      const result = await run("git -c user.email=t@t -c user.name=t commit -q --allow-empty -m mine 2>/dev/null && echo committed || echo refused", other);
      assert.match(result.text, /^refused$/m);
    } finally {
      roots.pop();
    }
  });

  it("hides host daemons' unix sockets (Docker Desktop's in the home, the user's runtime folder)", async () => {
    // Stand-ins at the real, predictable places: ~/.docker/run/docker.sock and $XDG_RUNTIME_DIR/bus.
    const sockets = [path.join(machine.home, ".docker", "run", "docker.sock")];
    const runtime = `/run/user/hermes-test-${process.pid}`;
    if (existsSync("/run/user")) sockets.push(path.join(runtime, "bus"));
    const servers: NetServer[] = [];
    try {
      for (const socket of sockets) {
        mkdirSync(path.dirname(socket), { recursive: true });
        // The client exits as soon as it connects: its reset is expected.
        const server = createNetServer((connection) => connection.on("error", () => {}).end("reached"));
        await new Promise<void>((resolve) => server.listen(socket, resolve));
        servers.push(server);
      }
      const connect = (socket: string) =>
        `node -e "require('net').connect('${socket}').on('connect', () => { console.log('reached ${socket}'); process.exit(0) }).on('error', (e) => { console.log('failed', e.code); process.exit(3) })"`;
      for (const socket of sockets) {
        const inside = await run(connect(socket));
        assert.equal(inside.exit.code, 3, inside.text);
        assert.doesNotMatch(inside.text, /reached/);
        // The control: the same client outside the sandbox reaches it.
        const handle = await runner.start(connect(socket), { cwd: machine.workspace, outputLimit: 10_000, unsandboxed: true });
        started.push(handle);
        assert.equal((await handle.waitForExit()).code, 0, (await handle.output()).text);
      }
    } finally {
      for (const server of servers) await new Promise((resolve) => server.close(resolve));
      rmSync(runtime, { recursive: true, force: true });
    }
  });

  it("mounts the workspace read-only in plan mode", async () => {
    planMode = true;
    try {
      const result = await run("cat readme.md && echo changed > readme.md");
      assert.notEqual(result.exit.code, 0);
      assert.match(result.text, /^hello/);
      assert.equal(readFileSync(path.join(machine.workspace, "readme.md"), "utf8"), "hello");
      assert.match(result.note ?? "", /plan mode is read-only/);
    } finally {
      planMode = false;
    }
  });

  it("is killed with its whole tree on cancel: no orphan survives", async () => {
    const marker = `hermes-sandbox-orphan-${process.pid}`;
    const handle = await runner.start(`node -e "setInterval(() => {}, 1000)" ${marker} & node -e "setInterval(() => {}, 1000)" ${marker}-2 & echo started; wait`, {
      cwd: machine.workspace,
      outputLimit: 10_000,
    });
    started.push(handle);
    await commandOutputMatching(handle, /started/, 10_000);
    // Both are forked by then, but may not have become `node …` yet; a process's exec sends no
    // event to us, so this polls /proc (briefly: the command line changes right after the fork).
    const deadline = Date.now() + 10_000;
    while (liveWith(marker).length !== 2) {
      assert.ok(Date.now() < deadline, `the two sandboxed node processes never started: ${(await handle.output()).text}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await handle.kill();
    await handle.waitForExit();
    for (let attempt = 0; liveWith(marker).length > 0 && attempt < 100; attempt++) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(liveWith(marker), []);
  });
});

/** Pids of live (not zombie) node processes whose arguments mention `marker`. */
function liveWith(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "latin1");
      const [program] = cmdline.split("\0");
      if (!cmdline.includes(marker) || !program?.endsWith("node")) continue;
      const state = readFileSync(`/proc/${entry}/stat`, "latin1").split(") ")[1]?.[0];
      if (state !== "Z") pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

/** An HTTP client run inside the sandbox: through $HTTP_PROXY (plain or CONNECT), or direct. */
const CLIENT = `
const http = require("node:http");
const [how, host, port] = process.argv.slice(1);
const proxy = new URL(process.env.HTTP_PROXY || "http://127.0.0.1:1");
const fail = (error) => { console.log("failed:", error.message); process.exit(3); };
const show = (response) => { let body = ""; response.on("data", (d) => (body += d)); response.on("end", () => console.log(response.statusCode, body.trim())); };
if (how === "direct") http.get({ host, port }, show).on("error", fail);
if (how === "plain") http.get({ host: proxy.hostname, port: proxy.port, path: "http://" + host + ":" + port + "/" }, show).on("error", fail);
if (how === "connect") {
  http.request({ host: proxy.hostname, port: proxy.port, method: "CONNECT", path: host + ":" + port })
    .on("connect", (response, socket) => {
      if (response.statusCode !== 200) return console.log(response.statusCode, "refused");
      http.get({ host, port, createConnection: () => socket }, show).on("error", fail);
    })
    .on("response", (response) => show(response))
    .on("error", fail)
    .end();
}
`;

describe("the network allowlist (a domain proxy reached from inside the sandbox)", { skip: sandboxSkip() }, () => {
  const machine = fakeMachine();
  const sandbox = new CommandSandbox({ mode: "on", allowedDomains: ["localhost"] }, () => ({
    roots: [machine.workspace],
    readOnlyWorkspace: false,
    sessionKey: "allowlist-test",
    home: machine.home,
    hermesHome: machine.hermesHome,
  }));
  const runner = new LocalShellRunner({ ...process.env, HOME: machine.home }, sandbox);
  let server: Server;
  let port = 0;
  before(async () => {
    server = createServer((_request, response) => response.end("reached"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    killAllProcessGroups();
    await new Promise((resolve) => server.close(resolve));
  });

  async function request(how: "plain" | "connect" | "direct", host: string) {
    const handle = await runner.start(`node -e '${CLIENT}' ${how} ${host} ${port}`, { cwd: machine.workspace, outputLimit: 10_000 });
    const exit = await handle.waitForExit();
    const { text } = await handle.output();
    await handle.release();
    return { code: exit.code, text, note: handle.sandboxNote?.(text) };
  }

  it("reaches a listed domain through the proxy, plain HTTP and CONNECT", async () => {
    assert.match((await request("plain", "localhost")).text, /^200 reached$/m);
    assert.match((await request("connect", "localhost")).text, /^200 reached$/m);
  });

  it("refuses a domain that is not listed, and says why", async () => {
    const plain = await request("plain", "127.0.0.1");
    assert.match(plain.text, /^403 hermes sandbox: 127\.0\.0\.1 is not in terminal\.network\.allowed_domains/m);
    assert.match(plain.note ?? "", /allowlist refused 127\.0\.0\.1: only localhost are reachable/);
    assert.match((await request("connect", "127.0.0.1")).text, /^403 refused$/m);
  });

  it("has no way around the proxy: a direct connection fails", async () => {
    const direct = await request("direct", "localhost");
    assert.equal(direct.code, 3, direct.text);
    assert.doesNotMatch(direct.text, /reached/);
  });
});

describe("a child agent's terminal/* commands (ChildServices): sandboxed to the task's folder", { skip: sandboxSkip() }, () => {
  const machine = fakeMachine();
  const task = path.join(machine.workspace, "packages", "task");
  mkdirSync(task, { recursive: true });
  // What the delegation builds for an external agent: the session's sandbox with the task folder as the only root.
  const shell = new LocalShellRunner({ ...process.env, HOME: machine.home }, new CommandSandbox({ mode: "auto", allowedDomains: [] }, () => ({
    roots: [task],
    readOnlyWorkspace: false,
    sessionKey: "child-task",
    home: machine.home,
    hermesHome: machine.hermesHome,
  })));
  const services = new ChildServices(task, new LocalFileAccess(), shell);
  after(() => services.releaseAll());

  it("writes inside the task folder, not in the rest of the workspace nor the home folder", async () => {
    const { terminalId } = await services.createTerminal({
      sessionId: "s",
      command: "sh",
      args: ["-c", `echo ok > here.txt; echo no > ${machine.workspace}/readme.md; echo no > ${machine.home}/x; cat ~/.ssh/id_rsa`],
      cwd: task,
    });
    const exit = await services.waitForExit({ sessionId: "s", terminalId });
    const { output } = await services.terminalOutput({ sessionId: "s", terminalId });
    assert.notEqual(exit.exitCode, 0);
    assert.match(output, new RegExp(`${machine.home}/x: ${BLOCKED_WRITE.source}`));
    assert.match(output, new RegExp(`${machine.workspace}/readme\\.md: ${BLOCKED_WRITE.source}`));
    assert.equal(readFileSync(path.join(task, "here.txt"), "utf8"), "ok\n");
    assert.equal(readFileSync(path.join(machine.workspace, "readme.md"), "utf8"), "hello");
    assert.equal(existsSync(path.join(machine.home, "x")), false);
    assert.doesNotMatch(output, /secret/);
  });
});
