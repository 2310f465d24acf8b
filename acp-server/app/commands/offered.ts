// The commands a session offers its editor: the built-in ones, then the session's skills as
// commands (a skill named like a built-in command is not one), then the enabled plugins'
// commands (named `<plugin>:<name>` when a built-in command or a skill has the name). Loaded
// when the list is sent, not with the process: a first session/new needs none of the commands'
// modules.
import type { AgentRuntime } from "../../runtime/runtime";
import type { CommandInfo } from "../../runtime/slash-command";
import type { PluginCommand } from "../../plugins/plugin-commands";
import type { Logger } from "../../util/log";
import { BUILT_IN_COMMANDS } from "./all-commands";
import { RESERVED_COMMAND_NAMES } from "./command-line";

/** None of the skills or plugin commands when they cannot be read: the built-in commands still go out. */
export async function offeredCommands(cwd: string, runtime: AgentRuntime, log: Logger): Promise<CommandInfo[]> {
  try {
    const { skillCommands } = await import("../../skills/commands/skill-invocation");
    const skills = skillCommands(cwd, runtime.loaded, RESERVED_COMMAND_NAMES);
    const plugins = await sessionPluginCommands(runtime, skills);
    const asInfo = (command: PluginCommand): CommandInfo => ({ name: command.name, description: command.description, ...(command.hint ? { hint: command.hint } : {}) });
    return [...BUILT_IN_COMMANDS, ...skills, ...plugins.map(asInfo)];
  } catch (error) {
    log.warn("offering the skills and plugin commands as commands failed", { error });
    return [...BUILT_IN_COMMANDS];
  }
}

/** The enabled plugins' commands, named around the built-in commands and `skills` (the skill commands offered). */
export async function sessionPluginCommands(runtime: AgentRuntime, skills: readonly CommandInfo[]): Promise<PluginCommand[]> {
  const { activePlugins } = await import("../../plugins/plugin-store");
  const { plugins } = activePlugins(runtime.loaded.home);
  if (plugins.length === 0) return [];
  const { pluginCommands } = await import("../../plugins/plugin-commands");
  return pluginCommands(plugins, new Set([...RESERVED_COMMAND_NAMES, ...skills.map((skill) => skill.name)]));
}
