// Which user messages can be restored: the agent's checkpoint list (Hermes's
// `_hermes/checkpoints/list`, fetched by the host after a load and after each turn) and the
// pure questions the panel asks of it. A turn is its prompt's number in the session, as the
// agent counts it (`_meta["hermes/turn"]`), so a message and its checkpoint always agree.

import type { CheckpointTurn } from "../checkpoint-list";

export type { CheckpointTurn };

export interface CheckpointState {
  /** The agent answers the checkpoint list (Hermes): restore and edit-and-resend are offered. */
  supported: boolean;
  /** Checkpoints are on in this workspace; when off, `reason` says why. */
  enabled: boolean;
  reason?: string;
  /** Oldest turn first. */
  turns: CheckpointTurn[];
}

/** The checkpoint taken before `turn` itself, if that turn changed files. */
export function checkpointOf(state: CheckpointState | undefined, turn: number): CheckpointTurn | undefined {
  return state?.turns.find((entry) => entry.turn === turn);
}

/**
 * What "edit and resend" of `turn` restores: every turn from it on leaves the conversation, so
 * the files go back to before the first of them that changed any (its own checkpoint, or a
 * later turn's: the turns in between changed nothing).
 */
export function restoreTargetFrom(state: CheckpointState | undefined, turn: number): CheckpointTurn | undefined {
  return state?.turns.find((entry) => entry.turn >= turn);
}
