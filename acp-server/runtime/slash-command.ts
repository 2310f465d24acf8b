// The contract of a slash command: one file per command, next to the feature it belongs to
// (checkpoints/commands/, memory/commands/, app/commands/ for the built-in ones), each exporting
// `defineCommand({...})`; app/commands/all-commands.ts lists them (one line each). A command is
// answered without the model and always says something. Front ends advertise `commandInfo()`.
import type { Logger } from "../util/log";
import type { ClientChannel } from "./client-channel";
import type { LiveSession } from "./live-session";
import type { AgentRuntime } from "./runtime";
import type { SessionOutput } from "./session-output";

/** How a command is advertised: `/name <hint>`: description. */
export interface CommandInfo {
  name: string;
  description: string;
  /** What the argument is (absent: the command takes none). */
  hint?: string;
}

export interface CommandContext {
  /** The text after `/name`, trimmed. */
  argument: string;
  session: LiveSession;
  runtime: AgentRuntime;
  /** Where the answer goes (a command's text is part of the agent's message). */
  output: SessionOutput;
  /** The editor, for commands that ask (a restore) or describe it (/context's sandbox line). */
  client: ClientChannel;
  signal: AbortSignal;
  log: Logger;
  /** Forks this session keeping its first `turns` prompts: the new session's id (absent: not here). */
  fork?: (turns: number) => Promise<string>;
  /** The built-in commands, in their order (/help lists them). */
  commands: readonly CommandInfo[];
}

/** What a command did that the front end may act on (the ACP edge puts it in the answer's `_meta`). */
export interface CommandResult {
  /** A rewind forked the session into this one. */
  forkedSessionId?: string;
  /** What became of a restore: done, nothing to do, cancelled by the user, or not possible. */
  restore?: "restored" | "nothing" | "cancelled" | "unavailable";
  /** An immediate command that has nothing to act on runs as this prompt instead (/steer with no turn). */
  runAsPrompt?: string;
  /** /steer handed its note to the running turn. */
  steer?: "pending";
  /** The command stopped because the request was cancelled. */
  cancelled?: boolean;
}

export interface SlashCommand extends CommandInfo {
  /** Answered the moment it arrives, even during a turn, instead of waiting in the session's queue. */
  immediate?: boolean;
  run(context: CommandContext): Promise<CommandResult | void> | CommandResult | void;
}

/** A command, typed (the one way commands are written). */
export function defineCommand(command: SlashCommand): SlashCommand {
  return command;
}
