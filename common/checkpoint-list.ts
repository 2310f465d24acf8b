// `_hermes/checkpoints/list` {sessionId}: which turns of a live session have a checkpoint, so a
// client (the VS Code panel) can offer "Restore checkpoint" on the user messages that started
// them. One declaration for the agent that answers it (app/checkpoint-list.ts), the host that
// asks (extension/checkpoint-list.ts) and the panel that shows it.
import * as z from "zod";

import { LIST_CHECKPOINTS_METHOD } from "./hermes-methods";

export { LIST_CHECKPOINTS_METHOD };

export const checkpointListParamsSchema = z.object({ sessionId: z.string().min(1).max(200) });

const text = z.string().max(1_000_000);

export const checkpointTurnSchema = z.object({
  /** The turn's number: its prompt's position among the session's journaled prompts (session/fork's "hermes/turns" count). */
  turn: z.number().int().min(0),
  /** When the checkpoint was taken (ms since the epoch). */
  time: z.number(),
  /** The prompt's first words, secrets redacted. */
  prompt: text,
  /** What the turn changed; absent while the turn has not ended (or never did). */
  changedCount: z.number().int().min(0).optional(),
  changed: z.array(text).optional(),
});
export type CheckpointTurn = z.infer<typeof checkpointTurnSchema>;

/** The answer: the turns with a checkpoint, oldest first, or why checkpoints are off in this workspace. */
export const checkpointListingSchema = z.object({
  enabled: z.boolean(),
  reason: text.optional(),
  turns: z.array(checkpointTurnSchema),
});
export type CheckpointListing = z.infer<typeof checkpointListingSchema>;
