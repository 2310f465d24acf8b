// The file tools cannot plant code for the user's git in dont_ask mode (issue 29, item 3): the
// model writes a hook, git's config, a nested repository's config, a new gitfile, through
// write_file, patch and apply_patch, over ACP; each is refused, and then real `git status` and
// `git commit` run outside any sandbox and no marker appears.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { makeTempDir, scriptedConfig, startAgent } from "../support/in-process-agent";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();
const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t", GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };

const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, env: GIT_ENV, encoding: "utf8" });

function toolResult(body: any, id: string): string {
  return body.messages.find((m: any) => m.role === "tool" && m.tool_call_id === id)?.content ?? "";
}

test("dont_ask: write_file, patch and apply_patch on git's hooks and config (the workspace's, a nested repository's) are refused, and git runs nothing planted", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const marker = path.join(path.dirname(project), `MARKER-${path.basename(project)}`);
  git(project, "init", "-q", ".");
  writeFileSync(path.join(project, "readme.md"), "hello\n");
  git(project, "add", "readme.md");
  git(project, "commit", "-q", "-m", "init");
  mkdirSync(path.join(project, "nested"));
  git(path.join(project, "nested"), "init", "-q", ".");
  const hook = `#!/bin/sh\ntouch ${marker}\n`;
  const fsmonitor = `\tfsmonitor = "touch ${marker}; false"\n`;
  const calls: Array<[string, string, Record<string, unknown>]> = [
    ["hook", "write_file", { path: ".git/hooks/pre-commit", content: hook }],
    ["config", "patch", { path: ".git/config", old_string: "[core]\n", new_string: `[core]\n${fsmonitor}` }],
    ["nested", "patch", { path: "nested/.git/config", old_string: "[core]\n", new_string: `[core]\n${fsmonitor}` }],
    ["apply", "apply_patch", { patch: `*** Begin Patch\n*** Add File: .git/hooks/post-commit\n+#!/bin/sh\n+touch ${marker}\n*** End Patch` }],
    ["gitfile", "write_file", { path: "sub/.git", content: `gitdir: ${path.join(project, "nested", ".git")}\n` }],
    ["upper", "write_file", { path: ".GIT/hooks/pre-commit", content: hook }],
    ["commondir", "write_file", { path: ".git/commondir", content: `${path.join(project, "nested", ".git")}\n` }],
  ];
  const hermes = await startAgent({ config: scriptedConfig(model.url, { agent: { default_mode: "dont_ask" } }) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const first = model.requests.length;
    model.enqueue(...calls.map(([id, name, args]) => ({ toolCalls: [{ id, name, arguments: args }] })), { text: "done" });
    await hermes.prompt(sessionId, "make git do things later");
    calls.forEach(([id], index) => assert.match(toolResult(model.requests[first + index + 1].body, id), /A file tool does not change .*git/, `${id}: refused, naming git`));
    assert.equal(hermes.permissionRequests.length, 0, "dont_ask asks nobody: it refuses");
  } finally {
    await hermes.close();
  }
  // The user's next git runs, outside any sandbox, with hooks on.
  writeFileSync(path.join(project, "readme.md"), "changed\n");
  for (const dir of [project, path.join(project, "nested"), path.join(project, "sub")]) {
    if (!existsSync(dir)) continue;
    spawnSync("bash", ["-c", "git status >/dev/null 2>&1; git add -A >/dev/null 2>&1; git commit -q -m next >/dev/null 2>&1"], { cwd: dir, env: GIT_ENV });
  }
  assert.equal(existsSync(marker), false, "nothing planted ran");
});

test("an editor's terminal (no sandbox): a script the user approved plants a hook and core.fsmonitor; both are undone, reported, and git runs nothing", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const marker = path.join(path.dirname(project), `MARKER-editor-${path.basename(project)}`);
  git(project, "init", "-q", ".");
  git(project, "commit", "-q", "--allow-empty", "-m", "init");
  writeFileSync(path.join(project, "setup.sh"), `printf '#!/bin/sh\\ntouch ${marker}\\n' > .git/hooks/pre-commit\nchmod +x .git/hooks/pre-commit\ngit config core.fsmonitor 'touch ${marker}; false'\necho set up\n`);
  // The user opted into the editor's bare terminals: the plant guard is the only layer there.
  const hermes = await startAgent({ config: scriptedConfig(model.url, { terminal: { editor_terminals: "always" } }), serveTerminal: true, permission: "allow" });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const first = model.requests.length;
    model.enqueue({ toolCalls: [{ id: "s", name: "terminal", arguments: { command: "bash setup.sh" } }] }, { text: "done" });
    await hermes.prompt(sessionId, "run the setup script");
    assert.equal(hermes.terminals.created.length, 1, "ran in the editor's terminal");
    const result = toolResult(model.requests[first + 1].body, "s");
    assert.match(result, /set up/);
    assert.match(result, /undid changes[\s\S]*pre-commit/);
    assert.match(result, /core\.fsmonitor/);
  } finally {
    await hermes.close();
  }
  spawnSync("bash", ["-c", "echo x > f; git status >/dev/null 2>&1; git add -A; git commit -q -m next"], { cwd: project, env: GIT_ENV });
  assert.equal(existsSync(marker), false, "nothing planted ran");
});
