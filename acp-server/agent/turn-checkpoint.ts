// The loop's checkpoint hook: a snapshot of the workspace before the first change of a turn
// (the first edit, or the first command that may change files), and one when the turn ends
// (the baseline that tells the user's later edits apart from the turn's). A read-only turn
// takes none. A checkpoint never fails a tool call: a failure is logged and said once.
import type { WorkspaceCheckpoints } from "../checkpoints/workspace-checkpoints";
import { planModeAllows } from "../security/read-only-commands";
import type { ToolDefinition } from "../tools/registry";
import type { Logger } from "../util/log";
import type { AgentSession } from "./session";

/** Tools that never change the workspace's files although they are not read-only. */
const OUTSIDE_WORKSPACE = new Set(["memory", "todo", "clarify", "skill_manage", "process"]);

/**
 * Whether running `tool` with `args` may change files in the workspace. Unknown tools (MCP
 * tools without a read-only hint) may: fail closed. A terminal command counts unless every
 * part of it is on plan mode's read-only list and writes no file.
 */
export function mayChangeWorkspace(tool: ToolDefinition, args: unknown): boolean {
  if (tool.readOnly || OUTSIDE_WORKSPACE.has(tool.name)) return false;
  if (tool.name === "terminal") {
    const command = (args as { command?: unknown } | undefined)?.command;
    return typeof command !== "string" || !planModeAllows(command);
  }
  return true;
}

export interface TurnCheckpointOptions {
  checkpoints: WorkspaceCheckpoints;
  session: AgentSession;
  /** The turn's number in the session (its user prompt's position among the journaled prompts). */
  turn: number;
  prompt: string;
  log: Logger;
  /** Tells the user something (a line in the turn). */
  notice: (text: string) => void;
}

export class TurnCheckpoint {
  private pre?: Promise<void>;
  private taken = false;

  constructor(private readonly options: TurnCheckpointOptions) {}

  /** Before a tool runs: the turn's checkpoint when this is its first change. Never rejects. */
  beforeTool(tool: ToolDefinition, args: unknown): Promise<void> {
    if (!mayChangeWorkspace(tool, args)) return Promise.resolve();
    return (this.pre ??= this.take());
  }

  /** When the turn ends (whatever way): the post-turn snapshot, if the turn had a pre one. Never rejects. */
  async finish(): Promise<void> {
    if (!this.pre) return;
    await this.pre;
    if (!this.taken) return;
    const { checkpoints, session, turn, log } = this.options;
    try {
      const opened = await checkpoints.open(session.cwd);
      if (opened.ok) await opened.store.checkpoint({ sessionId: session.id, turn, phase: "post" });
    } catch (error) {
      log.warn("post-turn checkpoint failed", { sessionId: session.id, turn, error });
    }
  }

  private async take(): Promise<void> {
    const { checkpoints, session, turn, prompt, log, notice } = this.options;
    try {
      const opened = await checkpoints.open(session.cwd);
      if (!opened.ok) return; // off (no git, turned off): /context says why
      const result = await opened.store.checkpoint({ sessionId: session.id, turn, prompt, phase: "pre" });
      if (!result.ok) {
        log.info("no checkpoint for this turn", { sessionId: session.id, turn, reason: result.reason });
        if (checkpoints.noteOnce(session.id)) notice(`No checkpoint was taken before this turn's changes: ${result.reason}. /undo and /rollback cannot revert them.`);
        return;
      }
      this.taken = true;
    } catch (error) {
      log.warn("checkpoint failed", { sessionId: session.id, turn, error });
      notice(`The checkpoint before this turn's changes failed (${(error as Error)?.message ?? String(error)}); /undo cannot revert this turn.`);
    }
  }
}
