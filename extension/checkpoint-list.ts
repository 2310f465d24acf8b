// The open session's checkpoints for the panel: Hermes's `_hermes/checkpoints/list`. Another
// agent does not know the method (or answers something else): then the panel offers neither
// "Restore checkpoint" nor "Edit and resend", which rely on Hermes's /rollback and fork cut.
// No vscode import.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import * as z from "zod";
import { checkpointListingSchema, LIST_CHECKPOINTS_METHOD } from "../common/checkpoint-list";
import type { CheckpointState } from "../common/panel-state/checkpoints";

/** The list, or `supported: false` with why (the caller logs it). */
export async function fetchCheckpoints(agent: acp.ClientContext, sessionId: string): Promise<{ state: CheckpointState; problem?: string }> {
  let answer: unknown;
  try {
    answer = await agent.request(LIST_CHECKPOINTS_METHOD, { sessionId });
  } catch (error) {
    return { state: unsupported(), problem: (error as Error)?.message ?? String(error) };
  }
  const parsed = checkpointListingSchema.safeParse(answer);
  if (!parsed.success) return { state: unsupported(), problem: `unexpected answer: ${z.prettifyError(parsed.error)}` };
  const { enabled, reason, turns } = parsed.data;
  return { state: { supported: true, enabled, ...(reason ? { reason } : {}), turns: enabled ? turns : [] } };
}

function unsupported(): CheckpointState {
  return { supported: false, enabled: false, turns: [] };
}
