// The commands a session offers its editor: the built-in ones, then the session's skills as
// commands (a skill named like a built-in command is not one). Loaded when the list is sent, not
// with the process: a first session/new needs none of the commands' modules.
import type { AgentRuntime } from "../../runtime/runtime";
import type { CommandInfo } from "../../runtime/slash-command";
import type { Logger } from "../../util/log";
import { BUILT_IN_COMMANDS } from "./all-commands";
import { RESERVED_COMMAND_NAMES } from "./command-line";

/** None of the skills when they cannot be read: the built-in commands still go out. */
export async function offeredCommands(cwd: string, runtime: AgentRuntime, log: Logger): Promise<CommandInfo[]> {
  try {
    const { skillCommands } = await import("../../skills/commands/skill-invocation");
    return [...BUILT_IN_COMMANDS, ...skillCommands(cwd, runtime.loaded, RESERVED_COMMAND_NAMES)];
  } catch (error) {
    log.warn("offering the skills as commands failed", { error });
    return [...BUILT_IN_COMMANDS];
  }
}
