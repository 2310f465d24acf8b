// The one line after a turn in the terminal chat: time, tokens in and out, the cached part of the
// input, and the cost when the model's price is known (the agent reports it in usage_update).
import type * as acp from "@agentclientprotocol/sdk/unstable";

const count = (n: number) => n.toLocaleString("en-US");

export function turnSummary(outcome: { usage?: acp.Usage | null; seconds: number; costUsd?: number }): string {
  const parts = [`${outcome.seconds < 10 ? outcome.seconds.toFixed(1) : Math.round(outcome.seconds)} s`];
  const usage = outcome.usage;
  if (usage) {
    parts.push(`${count(usage.inputTokens)} in`, `${count(usage.outputTokens)} out`);
    if (usage.cachedReadTokens) parts.push(`${count(usage.cachedReadTokens)} cached`);
  }
  // Cents are too coarse for one turn of a small model: show four decimals below a dollar.
  if (outcome.costUsd !== undefined && outcome.costUsd > 0) parts.push(`$${outcome.costUsd < 1 ? outcome.costUsd.toFixed(4) : outcome.costUsd.toFixed(2)}`);
  return parts.join(" · ");
}
