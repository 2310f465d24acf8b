// Installing, enabling, disabling and removing plugins. Installing fetches the plugin into a
// staging folder under `$HERMES_HOME/plugins/` first (a folder is copied without its .git, a git
// URL is cloned shallow, an npm name or tarball is packed by npm and unpacked), reads it, and
// only after the caller confirmed what it adds is it renamed into place and recorded. A plugin
// is code the user installs, like any program: what it would run (hooks, MCP server commands)
// is listed before the confirmation, in full.
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { isDirectory, isRegularFile } from "../util/path-kind";
import { MANIFEST_PATHS, readPluginFolder, type PluginContents } from "./plugin-manifest";
import { pluginFolder, pluginsDir, readPluginStates, updatePluginStates } from "./plugin-store";

const run = promisify(execFile);

export type SourceKind = "folder" | "git" | "npm";

const GIT_URL = /^(?:https?:\/\/|git@|ssh:\/\/|git:\/\/|file:\/\/)|\.git\/?$/;
const NPM_NAME = /^(?:@[a-z0-9][\w.~-]*\/)?[a-z0-9][\w.~-]*(?:@[^\s/]+)?$/;

/** What kind of source `source` is, read relative to `cwd`; undefined when it is none of them. */
export function sourceKind(source: string, cwd: string): SourceKind | undefined {
  const local = path.resolve(cwd, source);
  if (isDirectory(local)) return MANIFEST_PATHS.some((relative) => isRegularFile(path.join(local, relative))) ? "folder" : "git";
  if (isRegularFile(local) && /\.(?:tgz|tar\.gz)$/.test(local)) return "npm";
  if (GIT_URL.test(source)) return "git";
  if (NPM_NAME.test(source)) return "npm";
  return undefined;
}

/** A plugin fetched and read, not installed yet: `commit` installs it, `discard` drops it. */
export interface StagedPlugin {
  plugin: PluginContents;
  source: string;
  /** Whether a plugin of this name is already installed (committing replaces it). */
  replaces: boolean;
  commit(): void;
  discard(): void;
}

export async function stagePlugin(home: string, source: string, cwd: string): Promise<StagedPlugin> {
  const kind = sourceKind(source, cwd);
  if (!kind) throw new Error(`"${source}" is neither a plugin folder, a git repository or URL, nor an npm package name`);
  mkdirSync(pluginsDir(home), { recursive: true, mode: 0o700 });
  const staging = mkdtempSync(path.join(pluginsDir(home), ".staging-"));
  const discard = () => rmSync(staging, { recursive: true, force: true });
  try {
    const fetched = await fetchInto(kind, source, cwd, staging);
    const read = readPluginFolder(fetched);
    if (!read.ok) throw new Error(read.problem);
    const plugin = read.plugin;
    const recordedSource = kind === "folder" || (kind !== "npm" && isDirectory(path.resolve(cwd, source))) ? path.resolve(cwd, source) : source;
    return {
      plugin,
      source: recordedSource,
      replaces: readPluginStates(home)[plugin.name] !== undefined,
      commit: () => {
        commitStaged(home, plugin.name, fetched, recordedSource);
        discard();
      },
      discard,
    };
  } catch (error) {
    discard();
    throw error;
  }
}

async function fetchInto(kind: SourceKind, source: string, cwd: string, staging: string): Promise<string> {
  const target = path.join(staging, "plugin");
  if (kind === "folder") {
    cpSync(path.resolve(cwd, source), target, { recursive: true, filter: (from) => path.basename(from) !== ".git" });
    return target;
  }
  if (kind === "git") {
    const url = isDirectory(path.resolve(cwd, source)) ? path.resolve(cwd, source) : source;
    // Transports that run a command (ext::, fd::) stay off; the user named what to clone, nothing else runs.
    await run("git", ["-c", "protocol.ext.allow=never", "-c", "protocol.fd.allow=never", "clone", "--quiet", "--depth", "1", "--no-recurse-submodules", "--", url, target], {
      env: { ...process.env, GIT_TERMINAL_PROMPT: "0" },
      timeout: 120_000,
    });
    rmSync(path.join(target, ".git"), { recursive: true, force: true });
    return target;
  }
  const spec = isRegularFile(path.resolve(cwd, source)) ? path.resolve(cwd, source) : source;
  const packed = path.join(staging, "packed");
  mkdirSync(packed);
  // --ignore-scripts: packing runs none of the package's lifecycle scripts (a plugin's code runs only when used).
  await run("npm", ["pack", spec, "--pack-destination", packed, "--silent", "--ignore-scripts"], { cwd: staging, timeout: 120_000 });
  const tarball = readdirSync(packed).find((name) => name.endsWith(".tgz"));
  if (!tarball) throw new Error(`npm pack ${spec} produced no package`);
  await run("tar", ["-xzf", path.join(packed, tarball), "-C", staging], { timeout: 120_000 });
  // npm packages unpack into package/.
  renameSync(path.join(staging, "package"), target);
  return target;
}

function commitStaged(home: string, name: string, fetched: string, source: string): void {
  updatePluginStates(home, (plugins) => {
    const folder = pluginFolder(home, name);
    const old = `${folder}.old-${process.pid}`;
    if (isDirectory(folder)) renameSync(folder, old);
    renameSync(fetched, folder);
    rmSync(old, { recursive: true, force: true });
    plugins[name] = { enabled: true, source, installed_at: new Date().toISOString() };
  });
}

/** Turns a plugin on or off (new sessions). Throws when it is not installed. */
export function setPluginEnabled(home: string, name: string, enabled: boolean): void {
  updatePluginStates(home, (plugins) => {
    const state = plugins[name];
    if (!state) throw new Error(`no plugin named "${name}" is installed (hermes plugins list)`);
    state.enabled = enabled;
  });
}

export function removePlugin(home: string, name: string): void {
  updatePluginStates(home, (plugins) => {
    if (!plugins[name]) throw new Error(`no plugin named "${name}" is installed (hermes plugins list)`);
    delete plugins[name];
    rmSync(pluginFolder(home, name), { recursive: true, force: true });
  });
}

/** What a plugin adds, one line each; what it would run is spelled out, command by command. */
export function describePluginContents(plugin: PluginContents): string[] {
  const lines: string[] = [];
  const names = (items: { name: string }[]) => items.map((item) => item.name).join(", ");
  if (plugin.commands.length > 0) lines.push(`commands: ${plugin.commands.map((command) => `/${command.name}`).join(", ")}`);
  if (plugin.agents.length > 0) lines.push(`agents: ${names(plugin.agents)}`);
  const skills = plugin.skillDirs.flatMap((dir) => readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory() && isRegularFile(path.join(dir, entry.name, "SKILL.md"))).map((entry) => entry.name));
  if (skills.length > 0) lines.push(`skills: ${skills.join(", ")}`);
  for (const command of hookCommands(plugin.hooks)) lines.push(`runs on ${command.event}${command.matcher ? ` (${command.matcher})` : ""}: ${command.command}`);
  for (const [name, server] of Object.entries(plugin.mcpServers)) {
    const entry = (server ?? {}) as { command?: unknown; args?: unknown; url?: unknown };
    if (typeof entry.command === "string") lines.push(`MCP server "${name}" runs: ${[entry.command, ...(Array.isArray(entry.args) ? entry.args.map(String) : [])].join(" ")}`);
    else lines.push(`MCP server "${name}" at ${typeof entry.url === "string" ? entry.url : "(no url)"}`);
  }
  if (plugin.toolsModule) lines.push(`JavaScript tools (in their own process): ${path.relative(plugin.root, plugin.toolsModule)}`);
  if (lines.length === 0) lines.push("nothing Hermes uses (no commands, agents, skills, hooks or MCP servers)");
  return lines;
}

/** Every command a hooks object would run, read loosely (the hooks feature validates the shape). */
function hookCommands(hooks: Record<string, unknown> | undefined): { event: string; matcher?: string; command: string }[] {
  const found: { event: string; matcher?: string; command: string }[] = [];
  for (const [event, groups] of Object.entries(hooks ?? {})) {
    for (const group of Array.isArray(groups) ? groups : []) {
      const { matcher, hooks: inner } = (group ?? {}) as { matcher?: unknown; hooks?: unknown };
      for (const hook of Array.isArray(inner) ? inner : []) {
        const command = (hook as { command?: unknown } | null)?.command;
        if (typeof command === "string") found.push({ event, ...(typeof matcher === "string" && matcher ? { matcher } : {}), command });
      }
    }
  }
  return found;
}
