// Token and cost arithmetic over normalized usage.
import type { TokenUsage } from "../providers/types";
import type { ModelChoice } from "./model-choice";

/** USD cost of one call, or undefined when the model's prices are unknown. */
export function callCost(usage: TokenUsage, price: ModelChoice["price"]): number | undefined {
  if (!price) return undefined;
  const cacheRead = usage.cacheReadTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  const uncached = Math.max(0, usage.inputTokens - cacheRead - cacheWrite);
  const dollars =
    uncached * price.input +
    cacheRead * (price.cache_read ?? price.input) +
    cacheWrite * (price.cache_write ?? price.input) +
    usage.outputTokens * price.output;
  return dollars / 1_000_000;
}

/** Sums the calls of one turn (reported with the prompt's response). */
export class UsageTotals {
  inputTokens = 0;
  outputTokens = 0;
  cacheReadTokens = 0;
  cacheWriteTokens = 0;
  reasoningTokens = 0;

  add(usage: TokenUsage): void {
    this.inputTokens += usage.inputTokens;
    this.outputTokens += usage.outputTokens;
    this.cacheReadTokens += usage.cacheReadTokens ?? 0;
    this.cacheWriteTokens += usage.cacheWriteTokens ?? 0;
    this.reasoningTokens += usage.reasoningTokens ?? 0;
  }
}
