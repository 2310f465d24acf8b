// A model the loop may call, with what the loop needs to know about it. The protocol edge
// builds these from the configuration; the loop tries them in order (the session's model
// first, then the fallbacks).
import type { ModelProvider } from "../providers/types";

export interface ModelChoice {
  /** "<provider>/<name>", as shown to the user. */
  id: string;
  provider: ModelProvider;
  /** Retries of one call before moving on to the next choice. */
  maxRetries: number;
  contextWindow: number;
  maxOutputTokens: number;
  /** USD per million tokens, when known. */
  price?: { input: number; output: number; cache_read?: number; cache_write?: number };
  /** false: the model takes text only; its requests carry image descriptions or notes instead (text-only-request.ts). */
  vision: boolean;
  /** What its API takes per image (image-fit.ts scales larger ones down); absent: the strictest API's. */
  imageLimits?: { maxSide: number; maxBytes: number };
}
