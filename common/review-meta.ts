// `_meta["hermes/review"]` on the answer to fs/write_text_file: how the user of Hermes's VS Code
// panel decided an edit hunk by hunk (how many hunks were accepted and rejected and, per hunk,
// where it is and a few of its lines). The extension writes it (extension/edit-review.ts), the
// agent reads it (acp/client-files.ts) and tells the model; one declaration for both.
import * as z from "zod";

export const REVIEW_META = "hermes/review";

const count = z.number().int().min(0).max(100_000);
/** A few changed lines of one hunk, as the client quoted them (bounded: this is client input). */
const quoted = z.array(z.string().max(400)).max(10);

export const ReviewHunkSchema = z.object({
  accepted: z.boolean(),
  /** 1-based line, in the file before the edit, of the hunk's first changed line. */
  line: z.number().int().min(1).max(10_000_000),
  removed: quoted.optional(),
  added: quoted.optional(),
});

export const ReviewMetaSchema = z.object({
  accepted: count,
  rejected: count,
  hunks: z.array(ReviewHunkSchema).max(500).optional(),
});
export type ReviewMeta = z.infer<typeof ReviewMetaSchema>;
export type ReviewHunk = z.infer<typeof ReviewHunkSchema>;
