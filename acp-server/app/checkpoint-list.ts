// `_hermes/checkpoints/list` (common/checkpoint-list.ts): which turns of a live session have a
// checkpoint. Checkpoints live in the shadow repository, not the journal, so asking again after
// session/load gives the same answer: the offer survives a reload. Loaded on first use.
import * as z from "zod";
import { checkpointListParamsSchema, LIST_CHECKPOINTS_METHOD, type CheckpointListing } from "../../common/checkpoint-list";
import type { AgentRuntime } from "../runtime/runtime";
import type { LiveSession } from "../runtime/live-session";
import { invalidParams } from "../util/agent-error";

/** The params, checked (the session id is looked up by the caller). */
export function listParams(raw: unknown): { sessionId: string } {
  const parsed = checkpointListParamsSchema.safeParse(raw ?? {});
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
