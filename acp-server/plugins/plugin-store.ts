// Installed plugins: each in its own folder `$HERMES_HOME/plugins/<name>/`, and one state file,
// `$HERMES_HOME/plugins/plugins.json`, saying which are installed, from where, and whether they
// are enabled. The state file is the truth (a folder it does not list is a leftover, not a
// plugin); it is changed under a lock and replaced atomically, so two Hermes processes
// installing at once cannot lose each other's entries.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import * as z from "zod";
import { writeFileAtomicSync } from "../util/atomic-write";
import { withFileLock } from "../util/file-lock";
import { readPluginFolder, type PluginContents } from "./plugin-manifest";

function stateFileSchema() {
  const plugin = z.object({
    enabled: z.boolean(),
    /** What it was installed from: a folder, a git URL or an npm package name. */
    source: z.string(),
    installed_at: z.string(),
  });
  return z.object({ version: z.literal(1), plugins: z.record(z.string(), plugin) });
}

// Built on first use: session start looks for plugins, and a home without any builds no schema.
let stateSchema: ReturnType<typeof stateFileSchema> | undefined;
type StateFile = z.infer<ReturnType<typeof stateFileSchema>>;
export type PluginState = StateFile["plugins"][string];

export function pluginsDir(home: string): string {
  return path.join(home, "plugins");
}

export function pluginFolder(home: string, name: string): string {
  return path.join(pluginsDir(home), name);
}

function stateFile(home: string): string {
  return path.join(pluginsDir(home), "plugins.json");
}

/** The state file, or an empty one when there is none. Throws when it exists but is broken: nobody should overwrite it blindly. */
export function readPluginStates(home: string): Record<string, PluginState> {
  const file = stateFile(home);
  if (!existsSync(file)) return {};
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`${file} is not valid JSON (${(error as Error).message}); fix or remove it`, { cause: error });
  }
  const parsed = (stateSchema ??= stateFileSchema()).safeParse(data);
  if (!parsed.success) throw new Error(`${file} is not a plugin state file (${parsed.error.issues[0]?.message ?? "invalid"}); fix or remove it`);
  return parsed.data.plugins;
}

/** Changes the state file under its lock: `change` gets the current entries and edits them in place. */
export function updatePluginStates<T>(home: string, change: (plugins: Record<string, PluginState>) => T): T {
  mkdirSync(pluginsDir(home), { recursive: true, mode: 0o700 });
  return withFileLock(`${stateFile(home)}.lock`, () => {
    const plugins = readPluginStates(home);
    const result = change(plugins);
    const next: StateFile = { version: 1, plugins };
    writeFileAtomicSync(stateFile(home), `${JSON.stringify(next, null, 2)}\n`, 0o600);
    return result;
  });
}

/** One installed plugin as `hermes plugins list` and `/plugins` show it. */
export interface InstalledPlugin {
  name: string;
  state: PluginState;
  folder: string;
  /** Its contents, or why it cannot be used. */
  read: { ok: true; plugin: PluginContents } | { ok: false; problem: string };
}

export function installedPlugins(home: string): InstalledPlugin[] {
  return Object.entries(readPluginStates(home))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, state]) => {
      const folder = pluginFolder(home, name);
      const read = readPluginFolder(folder);
      if (read.ok && read.plugin.name !== name) return { name, state, folder, read: { ok: false, problem: `${folder} now holds the plugin "${read.plugin.name}", not "${name}"` } };
      return { name, state, folder, read: read.ok ? read : { ok: false, problem: read.problem } };
    });
}

/** What sessions use: the enabled plugins that read well, and a line for each that does not. */
export interface ActivePlugins {
  plugins: PluginContents[];
  problems: string[];
}

/** Cheap when nothing is installed (one existsSync): session start calls it. */
export function activePlugins(home: string): ActivePlugins {
  if (!existsSync(stateFile(home))) return { plugins: [], problems: [] };
  let installed: InstalledPlugin[];
  try {
    installed = installedPlugins(home);
  } catch (error) {
    return { plugins: [], problems: [(error as Error).message] };
  }
  const active: ActivePlugins = { plugins: [], problems: [] };
  for (const entry of installed) {
    if (!entry.state.enabled) continue;
    if (entry.read.ok) active.plugins.push(entry.read.plugin);
    else active.problems.push(`plugin "${entry.name}" is skipped: ${entry.read.problem}`);
  }
  return active;
}
