// A plugin folder as Claude Code lays it out, read without running anything: its manifest
// (`.claude-plugin/plugin.json`, or `.hermes-plugin/plugin.json`), and what it brings:
// `commands/*.md`, `agents/*.md`, `skills/<name>/SKILL.md`, `hooks/hooks.json` and `.mcp.json`,
// plus any extra paths the manifest names. Every path must stay inside the plugin's folder: a
// manifest that points elsewhere is broken, not followed. A broken plugin is described by its
// problem and skipped by everyone who reads it; it never stops the server.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import * as z from "zod";
import { isInside } from "../util/inside-folder";
import { isDirectory, isRegularFile, realPathOrUndefined } from "../util/path-kind";

/** Where the manifest may live, in the order looked at. */
export const MANIFEST_PATHS = [path.join(".claude-plugin", "plugin.json"), path.join(".hermes-plugin", "plugin.json")];

const PathList = z.union([z.string().min(1), z.array(z.string().min(1))]);

/** plugin.json: only `name` is required; fields other tools add (homepage, license, …) are kept, not checked. */
const PluginJsonSchema = z.looseObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "must be kebab-case: lowercase letters, digits and dashes"),
  version: z.string().optional(),
  description: z.string().optional(),
  commands: PathList.optional(),
  agents: PathList.optional(),
  skills: PathList.optional(),
  hooks: z.union([z.string().min(1), z.record(z.string(), z.unknown())]).optional(),
  mcpServers: z.union([z.string().min(1), z.record(z.string(), z.unknown())]).optional(),
  /** Hermes's own additions (Claude Code ignores the key): `tools`, an ES module of JavaScript tools. */
  hermes: z.looseObject({ tools: z.string().min(1).optional() }).optional(),
});

/** A markdown file a plugin brings (a command or an agent), by the name it is offered under. */
export interface PluginMarkdownFile {
  name: string;
  file: string;
}

export interface PluginContents {
  name: string;
  version?: string;
  description?: string;
  /** The plugin's folder (real path): `${CLAUDE_PLUGIN_ROOT}`. */
  root: string;
  manifestPath: string;
  commands: PluginMarkdownFile[];
  agents: PluginMarkdownFile[];
  /** Folders whose sub-folders are skills. */
  skillDirs: string[];
  /** The `hooks` object (event → groups), as written; the hooks feature validates it. */
  hooks?: Record<string, unknown>;
  /** MCP servers by name, as written (config.yaml's `mcp_servers` shape). */
  mcpServers: Record<string, unknown>;
  /** The ES module of the plugin's JavaScript tools (plugin-tools.ts), when it has one. */
  toolsModule?: string;
}

export type PluginRead = { ok: true; plugin: PluginContents } | { ok: false; root: string; problem: string };

class PluginProblem extends Error {}

/** Reads the plugin in `folder`. Never throws: a broken plugin comes back as its problem. */
export function readPluginFolder(folder: string): PluginRead {
  const root = realPathOrUndefined(folder);
  if (!root || !isDirectory(root)) return { ok: false, root: folder, problem: `${folder} is not a folder` };
  try {
    return { ok: true, plugin: readContents(root) };
  } catch (error) {
    if (error instanceof PluginProblem) return { ok: false, root, problem: error.message };
    return { ok: false, root, problem: `${root}: ${(error as Error).message}` };
  }
}

function readContents(root: string): PluginContents {
  const manifestPath = MANIFEST_PATHS.map((relative) => path.join(root, relative)).find(isRegularFile);
  if (!manifestPath) throw new PluginProblem(`${root} has no .claude-plugin/plugin.json (or .hermes-plugin/plugin.json): it is not a plugin`);
  const manifest = PluginJsonSchema.safeParse(readJson(manifestPath));
  if (!manifest.success) {
    const issue = manifest.error.issues[0];
    throw new PluginProblem(`${manifestPath}: ${issue?.path.join(".") || "plugin.json"}: ${issue?.message ?? "invalid"}`);
  }
  const data = manifest.data;
  const inside = (relative: string, what: string): string => {
    const resolved = path.resolve(root, relative.replace(/\$\{(?:CLAUDE|HERMES)_PLUGIN_ROOT\}/g, root));
    const real = realPathOrUndefined(resolved) ?? resolved;
    if (!isInside(root, real)) throw new PluginProblem(`${manifestPath}: ${what} "${relative}" leads outside the plugin's folder`);
    return real;
  };
  const listed = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

  const markdown = (defaultDir: string, extra: string | string[] | undefined, what: string): PluginMarkdownFile[] => {
    const files: PluginMarkdownFile[] = [];
    for (const place of [defaultDir, ...listed(extra)]) {
      const target = inside(place, what);
      if (isDirectory(target)) files.push(...markdownIn(target));
      else if (isRegularFile(target) && target.endsWith(".md")) files.push({ name: path.basename(target, ".md"), file: target });
    }
    return uniqueByName(files);
  };

  const skillDirs = [...new Set(["skills", ...listed(data.skills)].map((place) => inside(place, "skills path")).filter(isDirectory))];
  return {
    name: data.name,
    ...(data.version !== undefined ? { version: data.version } : {}),
    ...(data.description !== undefined ? { description: data.description } : {}),
    root,
    manifestPath,
    commands: markdown("commands", data.commands, "commands path"),
    agents: markdown("agents", data.agents, "agents path"),
    skillDirs,
    ...hooksOf(data.hooks, inside),
    mcpServers: mcpServersOf(data.mcpServers, inside),
    ...toolsModuleOf(data.hermes?.tools, inside),
  };
}

function toolsModuleOf(declared: string | undefined, inside: (relative: string, what: string) => string): { toolsModule?: string } {
  if (declared === undefined) return {};
  const file = inside(declared, "tools module");
  if (!isRegularFile(file)) throw new PluginProblem(`the tools module ${file} does not exist`);
  return { toolsModule: file };
}

/** `hooks/hooks.json` (`{"hooks": {...}}`), or what the manifest names or holds inline. */
function hooksOf(declared: string | Record<string, unknown> | undefined, inside: (relative: string, what: string) => string): { hooks?: Record<string, unknown> } {
  if (declared !== undefined && typeof declared !== "string") return { hooks: unwrap(declared, "hooks") };
  const file = inside(declared ?? path.join("hooks", "hooks.json"), "hooks file");
  if (!isRegularFile(file)) {
    if (declared !== undefined) throw new PluginProblem(`the hooks file ${file} does not exist`);
    return {};
  }
  return { hooks: unwrap(asObject(readJson(file), file), "hooks") };
}

/** `.mcp.json` (`{"mcpServers": {...}}`, or the servers map itself), or what the manifest names or holds inline. */
function mcpServersOf(declared: string | Record<string, unknown> | undefined, inside: (relative: string, what: string) => string): Record<string, unknown> {
  if (declared !== undefined && typeof declared !== "string") return unwrap(declared, "mcpServers");
  const file = inside(declared ?? ".mcp.json", "MCP servers file");
  if (!isRegularFile(file)) {
    if (declared !== undefined) throw new PluginProblem(`the MCP servers file ${file} does not exist`);
    return {};
  }
  return unwrap(asObject(readJson(file), file), "mcpServers");
}

function unwrap(value: Record<string, unknown>, key: string): Record<string, unknown> {
  const inner = value[key];
  return inner !== undefined && typeof inner === "object" && inner !== null && !Array.isArray(inner) ? (inner as Record<string, unknown>) : value;
}

function asObject(value: unknown, file: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new PluginProblem(`${file} is not a JSON object`);
  return value as Record<string, unknown>;
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new PluginProblem(`${file} could not be read: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new PluginProblem(`${file} is not valid JSON: ${(error as Error).message}`);
  }
}

/** `*.md` in a folder, and in its sub-folders as `sub:name` (Claude Code's namespacing of nested commands). */
function markdownIn(dir: string, prefix = "", depth = 0): PluginMarkdownFile[] {
  const files: PluginMarkdownFile[] = [];
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    // expected: an unreadable folder brings nothing
    return files;
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.isFile() && entry.name.endsWith(".md")) files.push({ name: `${prefix}${path.basename(entry.name, ".md")}`, file: path.join(dir, entry.name) });
    else if (entry.isDirectory() && depth < 2) files.push(...markdownIn(path.join(dir, entry.name), `${prefix}${entry.name}:`, depth + 1));
  }
  return files;
}

function uniqueByName(files: PluginMarkdownFile[]): PluginMarkdownFile[] {
  const seen = new Set<string>();
  return files.filter((file) => !seen.has(file.name) && Boolean(seen.add(file.name)));
}
