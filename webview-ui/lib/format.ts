// Number formatting for the usage meter. Pure.

/** 950 → "950", 12_345 → "12.3k", 200_000 → "200k", 1_500_000 → "1.5M". */
export function formatTokens(n: number): string {
  if (!Number.isFinite(n) || n < 0) return "0";
  if (n < 1000) return String(Math.round(n));
  if (n < 1_000_000) return `${trim(n / 1000)}k`;
  return `${trim(n / 1_000_000)}M`;
}

function trim(value: number): string {
  return value >= 100 ? String(Math.round(value)) : value.toFixed(1).replace(/\.0$/, "");
}

/** A cost like "$0.42"; small amounts keep more digits so they do not read as zero. */
export function formatCost(cost: { amount: number; currency: string }): string {
  const digits = cost.amount > 0 && cost.amount < 0.1 ? 3 : 2;
  const amount = cost.amount.toFixed(digits);
  return cost.currency.toUpperCase() === "USD" ? `$${amount}` : `${amount} ${cost.currency}`;
}

/** Share of the context window in use, clamped to 0..1. */
export function usageRatio(used: number, size: number): number {
  if (!(size > 0)) return 0;
  return Math.min(1, Math.max(0, used / size));
}
