// `_meta["hermes/notice"]` on a thought chunk: a notice Hermes gave the user (a retry, a
// fallback model, a reply cut by max_tokens, a failed turn), live and on replay alike
// (acp/updates.ts noticeChunk). The text also reads as a thought (⚠ …) for clients that know
// nothing of it; the panel draws it as a warning row instead, so it is not folded away with the
// model's reasoning. No imports: the server's edge loads this at start-up.

export const NOTICE_META = "hermes/notice";

/** The notice's text, if `meta` carries one. */
export function noticeOf(meta: Record<string, unknown> | null | undefined): string | undefined {
  const value = meta?.[NOTICE_META];
  return typeof value === "string" ? value : undefined;
}
