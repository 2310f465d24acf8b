// Every slash command Hermes answers itself, in the order /help and the editor's menu list them.
// A new command is one file exporting `defineCommand({...})` (runtime/slash-command.ts), in its
// feature's `commands/` folder, plus its line here. An unknown /word is not a command: it goes to
// the model (or runs a skill, or an MCP prompt).
import { agentsCommand } from "../../delegate/commands/agents";
import { checkpointsCommand } from "../../checkpoints/commands/checkpoints";
import { rewindCommand } from "../../checkpoints/commands/rewind";
import { rollbackCommand } from "../../checkpoints/commands/rollback";
import { undoCommand } from "../../checkpoints/commands/undo";
import { learnedCommand } from "../../learning/commands/learned";
import { mcpCommand } from "../../mcp/commands/mcp";
import { reloadMcpCommand } from "../../mcp/commands/reload-mcp";
import { memoryCommand } from "../../memory/commands/memory";
import { pluginsCommand } from "../../plugins/commands/plugins";
import { hooksCommand } from "../../hooks/commands/hooks";
import type { SlashCommand } from "../../runtime/slash-command";
import { skillsCommand } from "../../skills/commands/skills";
import { toolsCommand } from "../../tools/commands/tools";
import { compressCommand } from "./compress";
import { contextCommand } from "./context";
import { helpCommand } from "./help";
import { modelCommand } from "./model";
import { queueCommand } from "./queue";
import { resetCommand } from "./reset";
import { steerCommand } from "./steer";
import { titleCommand } from "./title";
import { usageCommand } from "./usage";
import { versionCommand } from "./version";
import { worktreeCommand } from "../../worktrees/commands/worktree";

export const BUILT_IN_COMMANDS: readonly SlashCommand[] = [
  helpCommand,
  contextCommand,
  compressCommand,
  memoryCommand,
  skillsCommand,
  pluginsCommand,
  hooksCommand,
  learnedCommand,
  resetCommand,
  modelCommand,
  usageCommand,
  titleCommand,
  versionCommand,
  mcpCommand,
  reloadMcpCommand,
  toolsCommand,
  agentsCommand,
  steerCommand,
  queueCommand,
  checkpointsCommand,
  undoCommand,
  rollbackCommand,
  rewindCommand,
  worktreeCommand,
];
