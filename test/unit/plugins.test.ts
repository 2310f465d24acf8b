// Plugins in Claude Code's layout, read and installed without running anything: the manifest
// and what the plugin brings, broken plugins described (never thrown), installs from a folder
// and from a git repository on disk, enable/disable/remove, and plugin commands' names and text.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { checkPlugins } from "../../acp-server/cli/doctor-checks";
import { pluginAgents } from "../../acp-server/plugins/plugin-agents";
import { expandPluginCommand, pluginCommands, renderCommandBody } from "../../acp-server/plugins/plugin-commands";
import { describePluginContents, removePlugin, setPluginEnabled, sourceKind, stagePlugin } from "../../acp-server/plugins/plugin-install";
import { readPluginFolder, type PluginContents } from "../../acp-server/plugins/plugin-manifest";
import { activePlugins, installedPlugins, pluginFolder } from "../../acp-server/plugins/plugin-store";
import { copyPluginFixture, PLUGIN_FIXTURE } from "../support/plugin-fixtures";
import { makeTempDirSync } from "../support/temp-dirs";

function fixture(): PluginContents {
  const read = readPluginFolder(PLUGIN_FIXTURE);
  assert.ok(read.ok, read.ok ? "" : read.problem);
  return read.plugin;
}

test("the fixture plugin is read as Claude Code lays it out", () => {
  const plugin = fixture();
  assert.equal(plugin.name, "code-review-kit");
  assert.equal(plugin.version, "1.2.0");
  assert.deepEqual(plugin.commands.map((command) => command.name), ["git:summary", "help", "review"]);
  assert.deepEqual(plugin.agents.map((agent) => agent.name), ["checker"]);
  assert.deepEqual(plugin.skillDirs, [path.join(PLUGIN_FIXTURE, "skills")]);
  assert.deepEqual(Object.keys(plugin.hooks ?? {}), ["PreToolUse"]);
  assert.deepEqual(Object.keys(plugin.mcpServers), ["review-notes"]);
  const adds = describePluginContents(plugin);
  assert.ok(adds.includes("commands: /git:summary, /help, /review"), adds.join("\n"));
  assert.ok(adds.includes("runs on PreToolUse (Bash): ${CLAUDE_PLUGIN_ROOT}/hooks/log-command.sh"), adds.join("\n"));
  assert.ok(adds.some((line) => line.startsWith('MCP server "review-notes" runs: node ${CLAUDE_PLUGIN_ROOT}/servers/notes-server.mjs')), adds.join("\n"));
});

test("broken plugins come back as their problem, never as an exception", () => {
  const bare = makeTempDirSync("hermes-plugin-bad-");
  let read = readPluginFolder(bare);
  assert.ok(!read.ok && /not a plugin/.test(read.problem));

  mkdirSync(path.join(bare, ".claude-plugin"));
  writeFileSync(path.join(bare, ".claude-plugin", "plugin.json"), '{"name": "Bad Name"}');
  read = readPluginFolder(bare);
  assert.ok(!read.ok && /name: must be kebab-case/.test(read.problem), read.ok ? "" : read.problem);

  writeFileSync(path.join(bare, ".claude-plugin", "plugin.json"), "{ not json");
  read = readPluginFolder(bare);
  assert.ok(!read.ok && /not valid JSON/.test(read.problem));

  // A manifest path that leads out of the plugin is refused, not followed.
  writeFileSync(path.join(bare, ".claude-plugin", "plugin.json"), JSON.stringify({ name: "escape", commands: "../../../etc" }));
  read = readPluginFolder(bare);
  assert.ok(!read.ok && /leads outside the plugin's folder/.test(read.problem), read.ok ? "" : read.problem);

  // .hermes-plugin/plugin.json is accepted too.
  const hermesLayout = makeTempDirSync("hermes-plugin-own-");
  mkdirSync(path.join(hermesLayout, ".hermes-plugin"));
  writeFileSync(path.join(hermesLayout, ".hermes-plugin", "plugin.json"), JSON.stringify({ name: "own-layout" }));
  read = readPluginFolder(hermesLayout);
  assert.ok(read.ok && read.plugin.name === "own-layout");
});

test("install from a folder: staged, committed, listed, disabled, enabled and removed", async () => {
  const home = makeTempDirSync("hermes-plugin-home-");
  const source = copyPluginFixture();
  assert.equal(sourceKind(source, "/"), "folder");
  const staged = await stagePlugin(home, source, "/");
  assert.equal(installedPlugins(home).length, 0, "nothing is installed before the commit");
  staged.commit();
  const [entry] = installedPlugins(home);
  assert.ok(entry?.read.ok, entry && !entry.read.ok ? entry.read.problem : "not installed");
  assert.equal(entry.state.enabled, true);
  assert.equal(entry.state.source, source);
  assert.equal(statSync(path.join(home, "plugins", "plugins.json")).mode & 0o777, 0o600);
  assert.ok(existsSync(path.join(pluginFolder(home, "code-review-kit"), "commands", "review.md")));
  assert.deepEqual(activePlugins(home).plugins.map((plugin) => plugin.name), ["code-review-kit"]);

  setPluginEnabled(home, "code-review-kit", false);
  assert.deepEqual(activePlugins(home).plugins, []);
  setPluginEnabled(home, "code-review-kit", true);
  assert.equal(activePlugins(home).plugins.length, 1);

  removePlugin(home, "code-review-kit");
  assert.deepEqual(installedPlugins(home), []);
  assert.ok(!existsSync(pluginFolder(home, "code-review-kit")));
  assert.throws(() => setPluginEnabled(home, "code-review-kit", true), /no plugin named "code-review-kit"/);
});

test("install from a git repository on disk (a clone, without its .git); a broken installed plugin is skipped with its reason", async () => {
  const home = makeTempDirSync("hermes-plugin-home-");
  const repo = copyPluginFixture();
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, stdio: "pipe" });
  git("init", "-q");
  writeFileSync(path.join(repo, ".gitignore"), "node_modules\n");
  git("add", "-A");
  git("-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "plugin");
  const url = `file://${repo}`;
  assert.equal(sourceKind(url, "/"), "git");
  const staged = await stagePlugin(home, url, "/");
  staged.commit();
  const folder = pluginFolder(home, "code-review-kit");
  assert.ok(existsSync(path.join(folder, "skills", "commit-style", "SKILL.md")));
  assert.ok(!existsSync(path.join(folder, ".git")), "the clone's .git is not kept");
  assert.equal(installedPlugins(home)[0]?.state.source, url);

  writeFileSync(path.join(folder, ".claude-plugin", "plugin.json"), "{");
  const active = activePlugins(home);
  assert.deepEqual(active.plugins, []);
  assert.match(active.problems.join("\n"), /plugin "code-review-kit" is skipped: .*not valid JSON/);
  // doctor says so too, with the way out, and goes on (a warning, never a throw).
  const [check] = await checkPlugins(home);
  assert.equal(check?.name, "plugin code-review-kit");
  assert.equal(check?.status, "warn");
  assert.match(`${check?.detail} ${check?.fix}`, /skipped by sessions: .*not valid JSON[\s\S]*hermes plugins remove code-review-kit/);
});

test("a source that is no plugin is refused and leaves nothing behind", async () => {
  const home = makeTempDirSync("hermes-plugin-home-");
  const empty = makeTempDirSync("hermes-plugin-empty-");
  writeFileSync(path.join(empty, "README.md"), "not a plugin\n");
  // A folder without a manifest is taken for a git repository, and cloning it fails.
  await assert.rejects(stagePlugin(home, empty, "/"), /git|not a plugin/);
  await assert.rejects(stagePlugin(home, "not a source!", "/"), /neither a plugin folder/);
  assert.deepEqual(
    readdirNames(path.join(home, "plugins")).filter((name) => name.startsWith(".staging-")),
    [],
  );
});

function readdirNames(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir) : [];
}

test("plugin commands: offered by their own name unless taken; the long form always works; the body is filled in", () => {
  const plugin = fixture();
  const commands = pluginCommands([plugin], new Set(["help", "skills"]));
  assert.deepEqual(commands.map((command) => command.name), ["code-review-kit:git:summary", "code-review-kit:help", "review"]);
  const review = commands.find((command) => command.name === "review");
  assert.equal(review?.hint, "[files...]");
  assert.equal(review?.description, "code-review-kit: Review the given files for bugs");

  const text = expandPluginCommand("/review src/a.ts src/b.ts", commands);
  assert.ok(text);
  assert.match(text, /^Review src\/a\.ts src\/b\.ts for bugs\. Start with src\/a\.ts\./);
  assert.ok(text.includes(`${PLUGIN_FIXTURE}/checklist.md`), text);
  assert.match(text, /Current branch: \(run `git branch --show-current` with the terminal tool and use its output here\)/);
  assert.equal(expandPluginCommand("/code-review-kit:review x", commands)?.startsWith("Review x for bugs"), true);
  assert.match(expandPluginCommand("/code-review-kit:help", commands) ?? "", /This plugin adds/);
  assert.equal(expandPluginCommand("/nonexistent", commands), undefined);
  assert.equal(expandPluginCommand("review without a slash", commands), undefined);
});

test("a command body that names no arguments gets them appended", () => {
  assert.equal(renderCommandBody("Summarize the commits.", "last week", "/p"), "Summarize the commits.\n\nARGUMENTS: last week");
  assert.equal(renderCommandBody("Summarize the commits.", "", "/p"), "Summarize the commits.");
});

test("the installed plugin's files are what was staged, byte for byte", async () => {
  const home = makeTempDirSync("hermes-plugin-home-");
  const source = copyPluginFixture();
  (await stagePlugin(home, source, "/")).commit();
  assert.equal(readFileSync(path.join(pluginFolder(home, "code-review-kit"), "commands", "review.md"), "utf8"), readFileSync(path.join(source, "commands", "review.md"), "utf8"));
});

test("install from an npm package tarball (npm pack, no lifecycle scripts run)", async () => {
  const home = makeTempDirSync("hermes-plugin-home-");
  const source = copyPluginFixture();
  const marker = path.join(makeTempDirSync("hermes-plugin-marker-"), "ran");
  writeFileSync(path.join(source, "package.json"), JSON.stringify({ name: "code-review-kit", version: "1.2.0", scripts: { prepack: `touch ${marker}` } }));
  const out = makeTempDirSync("hermes-plugin-pack-");
  execFileSync("npm", ["pack", source, "--pack-destination", out, "--silent", "--ignore-scripts"], { cwd: out, stdio: "pipe" });
  const tarball = path.join(out, readdirSync(out).find((name) => name.endsWith(".tgz"))!);
  assert.equal(sourceKind(tarball, "/"), "npm");
  (await stagePlugin(home, tarball, "/")).commit();
  assert.ok(existsSync(path.join(pluginFolder(home, "code-review-kit"), "commands", "review.md")));
  assert.ok(!existsSync(marker), "no package script ran");
});

test("two plugins bringing an agent of the same name: the second is offered as <plugin>:<name>, not hidden", () => {
  const first = fixture();
  const second: PluginContents = { ...first, name: "other-kit" };
  const names = pluginAgents([first, second]).map((agent) => `${agent.plugin}/${agent.name}`);
  assert.deepEqual(names, ["code-review-kit/checker", "other-kit/other-kit:checker"]);
});
