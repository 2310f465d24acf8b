// The rest of the home folder is hidden inside the sandbox: another project's `.env` or an
// unlisted tool's token cannot be read by a command, while the toolchains and git settings a
// build needs (HOME_READ_ALLOW, plus terminal.sandbox_read_allow) stay readable, credential
// stores inside them stay hidden, and a workspace under the home folder stays writable.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, describe, it } from "node:test";
import { CommandSandbox } from "../../acp-server/security/sandbox/command-sandbox";
import { resolveSandboxPolicy } from "../../acp-server/security/sandbox/policy";
import type { RunningCommand } from "../../acp-server/tools/context";
import { LocalShellRunner } from "../../acp-server/tools/local-shell";
import { killAllProcessGroups } from "../../acp-server/util/process-group";
import { fakeMachine, sandboxSkip } from "../support/sandbox";

describe("the home folder inside the sandbox", { skip: sandboxSkip() }, () => {
  const machine = fakeMachine();
  const { home } = machine;
  const files: [string, string][] = [
    ["other-project/.env", "OTHER_SECRET=other-project-secret"],
    [".config/sometool/token", "unlisted-tool-token"],
    [".gitconfig", "[user]\n\tname = Dev\n"],
    [".cargo/bin/cargo-x", "toolchain-binary"],
    [".cargo/credentials.toml", "cargo-registry-token"],
    ["notes/todo.md", "allowed by config"],
    ["code/app/src/main.ts", "workspace file"],
  ];
  for (const [file, content] of files) {
    mkdirSync(path.dirname(path.join(home, file)), { recursive: true });
    writeFileSync(path.join(home, file), content);
  }
  const workspace = path.join(home, "code", "app");
  const sandbox = new CommandSandbox({ mode: "on", allowedDomains: [], readAllow: ["~/notes"] }, () => ({
    roots: [workspace],
    readOnlyWorkspace: false,
    sessionKey: "sandbox-home-test",
    home,
    hermesHome: machine.hermesHome,
  }));
  const runner = new LocalShellRunner({ ...process.env, HOME: home, HERMES_HOME: machine.hermesHome }, sandbox);
  const started: RunningCommand[] = [];
  after(async () => {
    for (const handle of started) await handle.release();
    killAllProcessGroups();
  });

  async function run(command: string) {
    const handle = await runner.start(command, { cwd: workspace, outputLimit: 100_000 });
    started.push(handle);
    const exit = await handle.waitForExit();
    return { exit, text: (await handle.output()).text };
  }

  it("hides what is not listed: another project's .env, an unlisted tool's token", async () => {
    const result = await run(`cat ${home}/other-project/.env ${home}/.config/sometool/token`);
    assert.doesNotMatch(result.text, /other-project-secret|unlisted-tool-token/);
    const listing = (await run(`ls -A ${home}`)).text.split("\n");
    assert.ok(!listing.includes("other-project") && !listing.includes("notes.txt"), listing.join(" "));
    assert.ok(listing.includes("code") && listing.includes(".gitconfig") && listing.includes(".hermes"), listing.join(" "));
  });

  it("keeps toolchains, git's settings and configured folders readable, credential stores hidden", async () => {
    const result = await run(`cat ${home}/.gitconfig ${home}/.cargo/bin/cargo-x ${home}/notes/todo.md; cat ${home}/.cargo/credentials.toml`);
    assert.match(result.text, /name = Dev/);
    assert.match(result.text, /toolchain-binary/);
    assert.match(result.text, /allowed by config/);
    assert.doesNotMatch(result.text, /cargo-registry-token/);
  });

  it("a workspace under the home folder stays writable; the home folder does not", async () => {
    const result = await run(`echo changed > src/main.ts && cat src/main.ts; echo x > ${home}/.cargo/bin/evil; echo x > ${home}/new.txt; echo done`);
    assert.match(result.text, /changed/);
    assert.equal(readFileSync(path.join(workspace, "src", "main.ts"), "utf8"), "changed\n");
    assert.match(result.text, /done/);
    assert.throws(() => readFileSync(path.join(home, ".cargo/bin/evil")));
    assert.throws(() => readFileSync(path.join(home, "new.txt")));
  });

  it("[\"~\"] keeps the whole home readable; a workspace that is the home folder hides nothing of it", () => {
    const base = { roots: [workspace], readOnlyWorkspace: false, home, hermesHome: machine.hermesHome, tmpDir: machine.root, allowedDomains: [] };
    assert.equal(resolveSandboxPolicy({ ...base, readAllow: ["~"] }).home, undefined);
    assert.equal(resolveSandboxPolicy({ ...base, roots: [home] }).home, undefined);
    const policy = resolveSandboxPolicy(base).home;
    assert.ok(policy);
    assert.ok(policy.visible.includes(path.join(home, ".gitconfig")));
    assert.ok(!policy.visible.some((entry) => entry.includes("other-project")));
  });
});
