// Where a session's hooks come from, each hook with its origin: the user's config.yaml `hooks:`,
// the project's .hermes/hooks.json or .hermes/hooks.yaml (code from the repository: used only
// once trusted, hook-trust.ts), and each enabled plugin's hooks (with its folder as
// CLAUDE_PLUGIN_ROOT). A malformed file or group is reported and skipped; the rest still loads.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { HOOK_EVENTS, HooksSchema, type HookEvent } from "../config/hooks-schema";
import { activePlugins } from "../plugins/plugin-store";
import { isRegularFile } from "../util/path-kind";
import { yaml } from "../util/yaml";

export type HookOrigin = { kind: "user"; file: string } | { kind: "project"; file: string } | { kind: "plugin"; plugin: string; root: string };

export interface HookSpec {
  event: HookEvent;
  matcher: string;
  command: string;
  /** Seconds. */
  timeout: number;
  origin: HookOrigin;
}

export interface ProjectHooksFile {
  file: string;
  /** sha256 of the file's bytes: what a trust is granted for. */
  hash: string;
  hooks: HookSpec[];
}

export interface LoadedHooks {
  /** The user's and the plugins' hooks: the user's own programs, run without asking. */
  trusted: HookSpec[];
  /** The project's, when it has a hooks file: run only once trusted. */
  project?: ProjectHooksFile;
  problems: string[];
}

const DEFAULT_TIMEOUT_S = 60;
export const PROJECT_HOOK_FILES = [path.join(".hermes", "hooks.json"), path.join(".hermes", "hooks.yaml"), path.join(".hermes", "hooks.yml")];

export function loadHooks(options: { userHooks: unknown; configPath: string; home: string; cwd: string }): LoadedHooks {
  const problems: string[] = [];
  const trusted = specsOf(options.userHooks, { kind: "user", file: options.configPath }, problems);
  for (const plugin of activePlugins(options.home).plugins) {
    if (plugin.hooks) trusted.push(...specsOf(plugin.hooks, { kind: "plugin", plugin: plugin.name, root: plugin.root }, problems));
  }
  const project = projectHooks(options.cwd, problems);
  return { trusted, ...(project ? { project } : {}), problems };
}

function projectHooks(cwd: string, problems: string[]): ProjectHooksFile | undefined {
  const file = PROJECT_HOOK_FILES.map((relative) => path.join(cwd, relative)).find(isRegularFile);
  if (!file) return undefined;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    problems.push(`${file} could not be read: ${(error as Error).message}`);
    return undefined;
  }
  let data: unknown;
  try {
    data = file.endsWith(".json") ? JSON.parse(text) : yaml().parse(text);
  } catch (error) {
    problems.push(`${file} is not valid ${file.endsWith(".json") ? "JSON" : "YAML"}: ${(error as Error).message.split("\n")[0]}`);
    return undefined;
  }
  // A settings-style file ({"hooks": {...}}) or the hooks object itself.
  const hooksObject = data && typeof data === "object" && "hooks" in data ? (data as { hooks: unknown }).hooks : data;
  return { file, hash: createHash("sha256").update(text).digest("hex"), hooks: specsOf(hooksObject, { kind: "project", file }, problems) };
}

function specsOf(raw: unknown, origin: HookOrigin, problems: string[]): HookSpec[] {
  if (raw === undefined || raw === null) return [];
  const where = origin.kind === "plugin" ? `plugin ${origin.plugin}` : origin.file;
  const parsed = HooksSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    problems.push(`${where}: hooks${issue?.path.length ? `.${issue.path.join(".")}` : ""}: ${issue?.message ?? "invalid"} (these hooks are skipped)`);
    return [];
  }
  const specs: HookSpec[] = [];
  for (const [event, groups] of Object.entries(parsed.data)) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      problems.push(`${where}: hooks.${event} is not an event Hermes runs hooks for (${HOOK_EVENTS.join(", ")})`);
      continue;
    }
    for (const group of groups) {
      for (const hook of group.hooks) specs.push({ event: event as HookEvent, matcher: group.matcher ?? "", command: hook.command, timeout: hook.timeout ?? DEFAULT_TIMEOUT_S, origin });
    }
  }
  return specs;
}

/** Where a hook comes from, in words (/hooks, the tool card). */
export function describeOrigin(origin: HookOrigin): string {
  return origin.kind === "plugin" ? `plugin ${origin.plugin}` : origin.kind === "user" ? `config.yaml` : `project ${origin.file}`;
}
