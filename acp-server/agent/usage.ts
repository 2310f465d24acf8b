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

/**
 * A session's one account of tokens and cost (AgentSession.usage): every model call of the
 * session and of its children adds here. The session totals cover this process (/usage); the
 * turn totals the latest prompt (its answer's `usage`).
 */
export class UsageAccount {
  private input = 0;
  private output = 0;
  private calls = 0;
  private cost?: number;
  private turn = new UsageTotals();

  /** One model call; `costUsd` when the caller knows it (a child agent that reported it), else from `price`. */
  add(usage: TokenUsage, price: ModelChoice["price"], costUsd?: number): void {
    this.input += usage.inputTokens;
    this.output += usage.outputTokens;
    this.calls++;
    this.turn.add(usage);
    const cost = costUsd ?? callCost(usage, price);
    if (cost !== undefined) this.cost = (this.cost ?? 0) + cost;
  }

  startTurn(): void {
    this.turn = new UsageTotals();
  }

  get inputTokens(): number {
    return this.input;
  }

  get outputTokens(): number {
    return this.output;
  }

  get modelCalls(): number {
    return this.calls;
  }

  /** Cumulative USD cost, when the prices of the models used are known. */
  get costUsd(): number | undefined {
    return this.cost;
  }

  /** The calls of the current turn. */
  get turnTotals(): Readonly<UsageTotals> {
    return this.turn;
  }
}
