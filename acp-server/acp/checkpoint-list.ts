// `_hermes/checkpoints/list` {sessionId}: which turns of a live session have a checkpoint, so
// a client (the VS Code panel) can offer "Restore checkpoint" on the user messages that started
// them. Checkpoints live in the shadow repository, not the journal, so asking again after
// session/load gives the same answer: the offer survives a reload. Loaded on first use.
import * as z from "zod";
import type { AgentRuntime } from "../runtime/runtime";
import type { LiveSession } from "../runtime/live-session";
import { invalidParams } from "../util/agent-error";

export const LIST_CHECKPOINTS_METHOD = "_hermes/checkpoints/list";

const paramsSchema = z.object({ sessionId: z.string().min(1).max(200) });

export interface CheckpointTurn {
  /** The turn's number: its prompt's position among the session's journaled prompts (session/fork's "hermes/turns" count). */
  turn: number;
  /** When the checkpoint was taken (ms since the epoch). */
  time: number;
  /** The prompt's first words, secrets redacted. */
  prompt: string;
  /** What the turn changed; absent while the turn has not ended (or never did). */
  changedCount?: number;
  changed?: string[];
}

export type CheckpointListing = { enabled: true; turns: CheckpointTurn[] } | { enabled: false; reason: string; turns: [] };

/** The params, checked (the session id is looked up by the caller). */
export function listParams(raw: unknown): { sessionId: string } {
  const parsed = paramsSchema.safeParse(raw ?? {});
  if (!parsed.success) throw invalidParams(`invalid ${LIST_CHECKPOINTS_METHOD} params: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

export async function listTurnCheckpoints(runtime: AgentRuntime, session: LiveSession): Promise<CheckpointListing> {
  const opened = await runtime.checkpoints.open(session.agent.cwd);
  if (!opened.ok) return { enabled: false, reason: opened.reason, turns: [] };
  const turns = await opened.store.turns(session.id);
  return {
    enabled: true,
    turns: turns.map((entry) => ({
      turn: entry.turn,
      time: entry.time,
      prompt: entry.prompt,
      ...(entry.changedCount === undefined ? {} : { changedCount: entry.changedCount, changed: (entry.changed ?? []).slice(0, 20) }),
    })),
  };
}
