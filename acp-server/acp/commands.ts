// Slash commands Hermes answers itself, without the model (advertised with
// available_commands_update). An unknown /word is not a command: it goes to the model.
import type * as acp from "@agentclientprotocol/sdk/unstable";

export const COMMANDS: acp.AvailableCommand[] = [
  { name: "help", description: "List the commands" },
  { name: "context", description: "How much of the model's context window is in use, and how far compression is" },
  { name: "compress", description: "Compress the conversation's context now (earlier turns become a summary)" },
  { name: "memory", description: "The agent's memory and your profile, numbered; add, edit, delete, revert", input: { hint: "add|edit|delete|history|revert memory|user [N] [text] (empty: list)" } },
  { name: "skills", description: "List the skills (uses, last use, success rate); history NAME, revert NAME [N], delete NAME (archived), curate, archived, restore NAME", input: { hint: "history NAME | revert NAME [N] | delete NAME | curate | archived | restore NAME (empty: list)" } },
  { name: "learned", description: "What the learning review saved (memory, skills), and undo one", input: { hint: "undo <id> (empty: list)" } },
  { name: "reset", description: "Start a fresh context in this session" },
  { name: "model", description: "Show or switch the model", input: { hint: "model id (empty: list)" } },
  { name: "usage", description: "Tokens and cost of this session" },
  { name: "title", description: "Set this session's title", input: { hint: "new title" } },
  { name: "version", description: "Show Hermes's version" },
  { name: "mcp", description: "MCP servers: status and tool counts (their prompts are /mcp:<server>:<prompt>)" },
  { name: "reload-mcp", description: "Reconnect the MCP servers (config.yaml read again) and refresh their tools, in this session" },
  { name: "tools", description: "Tools by toolset, on or off; /tools enable|disable <tool or toolset> toggles them for this session", input: { hint: "enable|disable <name> (empty: list)" } },
  { name: "agents", description: "Agents delegate_task can hand tasks to, and which are installed" },
  { name: "steer", description: "Guide the running turn without stopping it: the note reaches the model at its next step", input: { hint: "guidance" } },
  { name: "queue", description: "Prompts waiting behind the running turn; /queue clear drops them", input: { hint: "clear (empty: list)" } },
  { name: "checkpoints", description: "This session's checkpoints: turn, time, prompt, files changed" },
  { name: "undo", description: "Revert the files the last changing turn touched (shows the diff and asks first)" },
  { name: "rollback", description: "Return the files to before turn N (shows the diff and asks first); --conversation also rewinds the chat", input: { hint: "turn number [--conversation]" } },
  { name: "rewind", description: "Rewind the conversation to before turn N in a new session (files unchanged; this session stays)", input: { hint: "turn number" } },
];

/** The commands answered at once, even during a turn, instead of waiting in the queue (acp/steer-queue.ts). */
export const IMMEDIATE_COMMANDS: ReadonlySet<string> = new Set(["steer", "queue"]);

/** The commands acp/checkpoint-commands.ts answers (they ask the client before restoring). */
export const CHECKPOINT_COMMANDS: ReadonlySet<string> = new Set(["checkpoints", "undo", "rollback", "rewind"]);

export interface Command {
  name: string;
  argument: string;
}

/** The command a prompt is, if it is one: a single text block `/name [argument]`. */
export function parseCommand(prompt: acp.ContentBlock[]): Command | undefined {
  const [only] = prompt;
  if (prompt.length !== 1 || only?.type !== "text") return undefined;
  const [, name, argument = ""] = /^\/([a-z][\w-]*)(?:\s+([\s\S]*))?$/.exec(only.text.trim()) ?? [];
  if (name === undefined || !COMMANDS.some((command) => command.name === name)) return undefined;
  return { name, argument: argument.trim() };
}
