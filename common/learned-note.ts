// `_meta["hermes/learned"]` on an agent message: one change the learning loop made (memory or a
// skill), as the session shows it live and on replay. The server writes it (acp/updates.ts,
// and the journal keeps it: sessions/types.ts), the panel reads it to draw a card with Undo and
// Open; one declaration for both.
import * as z from "zod";

export const LEARNED_META = "hermes/learned";

const line = z.string().max(10_000);

export const learnedNoteSchema = z.object({
  /** The change's id (`/learned undo <id>`). */
  id: line,
  kind: z.enum(["memory", "skill"]),
  /** One line: what was learned. */
  what: line,
  /** The file it was written to. */
  where: line,
});
export type LearnedNote = z.infer<typeof learnedNoteSchema>;
