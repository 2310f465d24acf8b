// `_meta["hermes/learned"]` on an agent message: one change the learning loop made (memory or a
// skill), as the session shows it live and on replay. The server writes it (acp/updates.ts, and
// the journal keeps it: sessions/types.ts), the panel reads it to draw a card with Undo and Open
// (its schema, typed against this, is in panel-state/schemas.ts). No imports: the server's edge
// loads this at start-up.

export const LEARNED_META = "hermes/learned";

export interface LearnedNote {
  /** The change's id (`/learned undo <id>`). */
  id: string;
  kind: "memory" | "skill";
  /** One line: what was learned. */
  what: string;
  /** The file it was written to. */
  where: string;
}
