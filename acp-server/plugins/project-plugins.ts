// The plugins a project says it wants: `.hermes/plugins.json` (or .yaml) in the project, as
// `{"plugins": {"<name>": "<source>"}}` (a git URL, an npm package, or a folder relative to the
// project), the way a Claude Code project lists the plugins its team uses. A wanted plugin is
// code from the repository's say-so, so it is never installed or enabled by reading the file:
// /plugins, `hermes plugins list` and doctor say which are missing or off and the command that
// fixes it, and `hermes plugins install --project` installs them, asking for each as any install does.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import * as z from "zod";
import { yaml } from "../util/yaml";
import { readPluginStates } from "./plugin-store";

export const PROJECT_PLUGIN_FILES = [path.join(".hermes", "plugins.json"), path.join(".hermes", "plugins.yaml"), path.join(".hermes", "plugins.yml")];

const WantedFileSchema = z.object({ plugins: z.record(z.string().regex(/^[A-Za-z0-9][\w.-]*$/, "a plugin name"), z.string().min(1)) }).strict();

export interface WantedPlugin {
  name: string;
  /** Where it installs from: a git URL, an npm name, or an absolute folder (a relative one is resolved against the project). */
  source: string;
  /** installed and enabled, installed but disabled, or not installed. */
  status: "enabled" | "disabled" | "missing";
}

export interface ProjectPlugins {
  file: string;
  wanted: WantedPlugin[];
}

/** The project's wanted plugins and their state here; undefined without a file. Throws with the file and the problem when it cannot be used. */
export function projectPlugins(home: string, cwd: string): ProjectPlugins | undefined {
  const file = PROJECT_PLUGIN_FILES.map((relative) => path.join(cwd, relative)).find(isFile);
  if (!file) return undefined;
  let data: unknown;
  try {
    const text = readFileSync(file, "utf8");
    data = file.endsWith(".json") ? JSON.parse(text) : yaml().parse(text);
  } catch (error) {
    throw new Error(`${file} cannot be read: ${(error as Error).message.split("\n")[0]}`, { cause: error });
  }
  const parsed = WantedFileSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: ${issue?.path.join(".") || "the file"}: ${issue?.message ?? "invalid"} (expected {"plugins": {"name": "git URL, npm package or folder"}})`);
  }
  const states = readPluginStates(home);
  const wanted = Object.entries(parsed.data.plugins).map(([name, source]): WantedPlugin => {
    const state = states[name];
    return { name, source: resolveSource(source, path.dirname(path.dirname(file))), status: state ? (state.enabled ? "enabled" : "disabled") : "missing" };
  });
  return { file, wanted };
}

/** What to type to fix a wanted plugin that is not on, or undefined when it is. */
export function fixFor(plugin: WantedPlugin): string | undefined {
  if (plugin.status === "missing") return `hermes plugins install ${quote(plugin.source)}`;
  if (plugin.status === "disabled") return `hermes plugins enable ${plugin.name}`;
  return undefined;
}

/** A folder source is relative to the project; URLs and package names are left alone. */
function resolveSource(source: string, project: string): string {
  const isFolder = source.startsWith("./") || source.startsWith("../") || source === "." || source.startsWith("/");
  return isFolder ? path.resolve(project, source) : source;
}

function quote(text: string): string {
  return /^[\w./:@~+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    // expected: no such file is the usual case
    return false;
  }
}
