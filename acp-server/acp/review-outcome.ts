// What the model is told after the editor's user accepted only part of an edit. Hermes's VS Code
// panel decides an edit hunk by hunk and answers the fs/write_text_file with
// `_meta["hermes/review"]`: how many hunks were accepted and rejected and, per hunk, where it is
// and a few of its lines. The text names each change that was written and each that was not, so
// the model neither assumes its whole edit landed nor re-applies what the user refused.
import * as z from "zod";
import type { WriteOutcome } from "../tools/context";

const count = z.number().int().min(0).max(100_000);
/** A few changed lines of one hunk, as the client quoted them (bounded: this is client input). */
const quoted = z.array(z.string().max(400)).max(10);

const ReviewHunkSchema = z.object({
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

/** Hunks listed in full before the rest are only counted. */
const MAX_LISTED = 20;
const MAX_QUOTE = 120;

/** The note for the tool's result; undefined when the whole edit landed (or the meta is not a review). */
export function reviewOutcome(meta: Record<string, unknown> | null | undefined): WriteOutcome | undefined {
  const parsed = ReviewMetaSchema.safeParse(meta?.["hermes/review"]);
  if (!parsed.success) return undefined;
  const { accepted, rejected, hunks } = parsed.data;
  if (rejected <= 0) return undefined;
  const lines = [
    `The user reviewed this edit and accepted ${accepted} of ${accepted + rejected} hunks; only the accepted hunks were written, the rejected ones were not.`,
  ];
  if (hunks?.length) {
    const listed = hunks.slice(0, MAX_LISTED);
    const written = listed.filter((h) => h.accepted);
    const refused = listed.filter((h) => !h.accepted);
    if (written.length) lines.push(`Written: ${written.map(describeHunk).join("; ")}.`);
    if (refused.length) lines.push(`Not written (rejected by the user): ${refused.map(describeHunk).join("; ")}.`);
    if (hunks.length > MAX_LISTED) lines.push(`(${hunks.length - MAX_LISTED} more hunks not listed.)`);
  }
  lines.push("Read the file again before changing it further, and do not re-apply the rejected changes unless the user asks.");
  return { note: lines.join("\n") };
}

/** `the change at line 19 (-"old" +"new")`, with the first removed and added line quoted. */
function describeHunk(hunk: z.infer<typeof ReviewHunkSchema>): string {
  const quote = (sign: string, text: string | undefined) => (text === undefined ? [] : [`${sign}${JSON.stringify(clip(text))}`]);
  const parts = [...quote("-", hunk.removed?.[0]), ...quote("+", hunk.added?.[0])];
  return `the change at line ${hunk.line}${parts.length ? ` (${parts.join(" ")})` : ""}`;
}

function clip(text: string): string {
  return text.length > MAX_QUOTE ? `${text.slice(0, MAX_QUOTE)}…` : text;
}
