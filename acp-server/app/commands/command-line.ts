// Which command a prompt is: a single text `/name [argument]` naming a built-in command.
import type { SlashCommand } from "../../runtime/slash-command";
import { BUILT_IN_COMMANDS } from "./all-commands";

export interface CommandLine {
  command: SlashCommand;
  argument: string;
}

const BY_NAME = new Map(BUILT_IN_COMMANDS.map((command) => [command.name, command]));

/** The names a skill or anything else offered as a command cannot take. */
export const RESERVED_COMMAND_NAMES: ReadonlySet<string> = new Set(BY_NAME.keys());

/** The command `text` invokes (the whole prompt's text, when it is one text block), if any. */
export function parseCommandLine(text: string | undefined): CommandLine | undefined {
  if (text === undefined) return undefined;
  const [, name, argument = ""] = /^\/([a-z][\w-]*)(?:\s+([\s\S]*))?$/.exec(text.trim()) ?? [];
  const command = name === undefined ? undefined : BY_NAME.get(name);
  return command ? { command, argument: argument.trim() } : undefined;
}
