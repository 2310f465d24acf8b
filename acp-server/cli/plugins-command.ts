// `hermes plugins install PATH|GIT-URL|NPM-NAME [--yes] | install --project | list | enable NAME | disable NAME | remove NAME`.
// --project installs what the project's .hermes/plugins.json wants (each shown and asked about).
// Installing shows what the plugin adds (every hook command and MCP server command in full) and
// asks before anything is put in place; --yes answers for scripts, and without a terminal to ask
// on, installing needs it. Changes apply to sessions started afterwards.
import { hermesHome } from "../config/paths";
import { describePluginContents, removePlugin, setPluginEnabled, stagePlugin } from "../plugins/plugin-install";
import { installedPlugins } from "../plugins/plugin-store";
import { fixFor, PROJECT_PLUGIN_FILES, projectPlugins } from "../plugins/project-plugins";
import { configureLogging } from "../util/log";
import { checkFlags, parseArgs, printJson, runCommand, UsageError } from "./cli-output";
import { terminalQuestions } from "./terminal-questions";
import { visibleControls } from "../../common/visible-controls";
import { printText } from "./terminal-safe";

export async function runPlugins(args: string[]): Promise<number> {
  return runCommand("plugins", async () => {
    const parsed = parseArgs(args);
    checkFlags(parsed, ["json", "yes", "project"]);
    const [verb = "list", target] = parsed.words;
    const json = parsed.flags.has("json");
    const home = hermesHome();
    configureLogging({ home, stderrLevel: "error" });
    switch (verb) {
      case "list":
        return list(home, json);
      case "install":
        if (parsed.flags.has("project")) {
          if (target) throw new UsageError("install --project installs what .hermes/plugins.json names: give no source with it");
          return installProject(home, parsed.flags.has("yes"), json);
        }
        if (!target) throw new UsageError("install needs a folder, a git URL or an npm package name (or --project)");
        return install(home, target, parsed.flags.has("yes"), json);
      case "enable":
      case "disable":
        if (!target) throw new UsageError(`${verb} needs a plugin name (hermes plugins list)`);
        setPluginEnabled(home, target, verb === "enable");
        report(json, { name: target, enabled: verb === "enable" }, `${verb === "enable" ? "Enabled" : "Disabled"} the plugin "${target}" for new sessions.`);
        return 0;
      case "remove":
        if (!target) throw new UsageError("remove needs a plugin name (hermes plugins list)");
        removePlugin(home, target);
        report(json, { name: target, removed: true }, `Removed the plugin "${target}".`);
        return 0;
      default:
        throw new UsageError(`unknown plugins command "${verb}" (install, list, enable, disable, remove)`);
    }
  });
}

function list(home: string, json: boolean): number {
  const plugins = installedPlugins(home);
  if (json) {
    printJson(
      plugins.map((entry) => ({
        name: entry.name,
        enabled: entry.state.enabled,
        source: entry.state.source,
        installed_at: entry.state.installed_at,
        folder: entry.folder,
        ...(entry.read.ok ? { version: entry.read.plugin.version, description: entry.read.plugin.description, adds: describePluginContents(entry.read.plugin) } : { problem: entry.read.problem }),
      })),
    );
    return 0;
  }
  if (plugins.length === 0) process.stderr.write("No plugins installed. hermes plugins install PATH|GIT-URL|NPM-NAME adds one.\n");
  for (const entry of plugins) {
    const state = entry.state.enabled ? "enabled" : "disabled";
    if (!entry.read.ok) {
      printText(`${entry.name.padEnd(24)} ${state.padEnd(9)} BROKEN: ${entry.read.problem}\n`);
      continue;
    }
    const plugin = entry.read.plugin;
    printText(`${entry.name.padEnd(24)} ${state.padEnd(9)} ${plugin.version ? `v${plugin.version} ` : ""}${plugin.description ?? ""}\n`);
    for (const line of describePluginContents(plugin)) printText(`    ${line}\n`);
  }
  let project;
  try {
    project = projectPlugins(home, process.cwd());
  } catch (error) {
    process.stderr.write(`This project's plugin list cannot be used: ${(error as Error).message}\n`);
    return 1;
  }
  if (project) {
    process.stdout.write(`\nWanted by this project (${project.file}):\n`);
    for (const plugin of project.wanted) process.stdout.write(`${plugin.name.padEnd(24)} ${plugin.status === "missing" ? "not installed" : plugin.status}${fixFor(plugin) ? `: ${fixFor(plugin)}` : ""}\n`);
    if (project.wanted.some((plugin) => plugin.status === "missing")) process.stdout.write("hermes plugins install --project installs the missing ones (it asks for each).\n");
  }
  return plugins.some((entry) => !entry.read.ok) ? 1 : 0;
}

/** `install --project`: each plugin .hermes/plugins.json wants and this machine lacks, installed as any install is (shown, then asked). */
async function installProject(home: string, yes: boolean, json: boolean): Promise<number> {
  const project = projectPlugins(home, process.cwd());
  if (!project) throw new UsageError(`this folder has no project plugin list (${PROJECT_PLUGIN_FILES.join(" or ")})`);
  const missing = project.wanted.filter((plugin) => plugin.status === "missing");
  if (missing.length === 0) {
    report(json, { installed: [] }, `Every plugin ${project.file} wants is installed.`);
    return 0;
  }
  let failed = 0;
  for (const plugin of missing) {
    if (!json) process.stderr.write(visibleControls(`\n${project.file} wants the plugin "${plugin.name}" from ${plugin.source}.\n`));
    const code = await install(home, plugin.source, yes, json).catch((error: unknown) => {
      process.stderr.write(`${plugin.name}: ${(error as Error).message}\n`);
      return 1;
    });
    if (code !== 0) failed++;
  }
  return failed > 0 ? 1 : 0;
}

async function install(home: string, source: string, yes: boolean, json: boolean): Promise<number> {
  const staged = await stagePlugin(home, source, process.cwd());
  try {
    const { plugin } = staged;
    const adds = describePluginContents(plugin);
    if (!yes) {
      if (!process.stdin.isTTY) throw new UsageError("installing a plugin asks for confirmation on a terminal; pass --yes to install without asking");
      // What the user agrees to run, as it is: a control character in a name or command shows (common/visible-controls.ts).
      process.stderr.write(visibleControls(`The plugin "${plugin.name}"${plugin.version ? ` v${plugin.version}` : ""} from ${staged.source}${staged.replaces ? " (replacing the installed one)" : ""} adds:\n${adds.map((line) => `  - ${line}\n`).join("")}A plugin's hooks and MCP servers run as your own programs, outside the sandbox.\n`));
      const questions = terminalQuestions();
      const answer = await questions.ask("Install it? [y/N]", "n").finally(() => questions.close());
      if (!/^y(es)?$/i.test(answer.trim())) {
        process.stderr.write("Not installed.\n");
        return 1;
      }
    }
    staged.commit();
    report(json, { name: plugin.name, version: plugin.version, source: staged.source, adds }, `Installed the plugin "${plugin.name}" (enabled for new sessions).\n${adds.map((line) => `  - ${line}`).join("\n")}`);
    return 0;
  } finally {
    staged.discard();
  }
}

function report(json: boolean, data: Record<string, unknown>, text: string): void {
  if (json) printJson(data);
  else process.stdout.write(`${text}\n`);
}
