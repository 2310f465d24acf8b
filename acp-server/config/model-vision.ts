// Whether a model accepts images, when config does not say (`vision: true|false` on a model
// entry wins). Sending an image to a text-only model makes the provider answer HTTP 400, which
// ends the turn; so a model this table does not know is taken as text-only (fail-safe): its
// images are described by the auxiliary vision model or replaced by a note, never sent.
// Names match on the part after any "vendor/" prefix (OpenRouter style), like model-metadata.ts.

/** Families that take images, by name pattern (matched anywhere in the lowercased bare name). */
const SEES: RegExp[] = [
  /^claude-(3|(opus|sonnet|haiku)-[4-9])/, // every Claude from 3 on
  /^gpt-4o/,
  /^gpt-4\.1/,
  /^gpt-4-turbo/,
  /^gpt-4-vision/,
  /^gpt-5/,
  /^o[134](-|$)/, // the o-series (o1, o3, o4-mini); o1-mini and o3-mini are text-only, below
  /^chatgpt-4o/,
  /^gemini-/,
  /^(llava|bakllava|moondream|minicpm-v)/,
  /-vl\b|-vl-|vision/, // Qwen2.5-VL, llama-3.2-vision and the like
  /^pixtral|^mistral-(small|medium)-3/,
  /^grok-(2-vision|4)/,
];

/** Names that match a family above but take text only. */
const TEXT_ONLY: RegExp[] = [/^o1-mini/, /^o3-mini/, /^gpt-5-codex-mini/];

export function modelSeesImages(name: string): boolean {
  const bare = (name.split("/").pop() ?? name).toLowerCase();
  if (TEXT_ONLY.some((pattern) => pattern.test(bare))) return false;
  return SEES.some((pattern) => pattern.test(bare));
}

export interface ImageLimits {
  /** Longest side, in pixels, an image is scaled down to before it is sent. */
  maxSide: number;
  /** Bytes (decoded) an image may have when sent. */
  maxBytes: number;
}

/**
 * What each API takes without shrinking it itself or refusing: Anthropic resizes anything over
 * 1568 px (the tokens are paid first) and refuses over 5 MB; OpenAI fits images into 2048 px
 * and takes up to 20 MB each.
 */
export function imageLimitsFor(apiMode: "chat_completions" | "anthropic_messages" | "codex_responses"): ImageLimits {
  return apiMode === "anthropic_messages" ? { maxSide: 1568, maxBytes: 5 * 1024 * 1024 } : { maxSide: 2048, maxBytes: 20 * 1024 * 1024 };
}

/** The tightest limits, for a model whose API is not known. */
export const STRICTEST_IMAGE_LIMITS: ImageLimits = { maxSide: 1568, maxBytes: 5 * 1024 * 1024 };
