// What Hermes knows about common models: context window, output cap and list prices
// (USD per million tokens). Config keys context_length / max_output_tokens / price win.
// Names match on the part after any "vendor/" prefix (OpenRouter style), longest pattern first.
import type { Price } from "./schema";

export interface ModelMetadata {
  contextWindow: number;
  maxOutputTokens: number;
  price?: Price;
}

type Row = [pattern: string, contextWindow: number, maxOutput: number, price?: Price];

const p = (input: number, output: number, cache_read?: number, cache_write?: number): Price => ({
  input,
  output,
  ...(cache_read !== undefined ? { cache_read } : {}),
  ...(cache_write !== undefined ? { cache_write } : {}),
});

const TABLE: Row[] = [
  ["claude-opus-4-5", 200_000, 64_000, p(5, 25, 0.5, 6.25)],
  ["claude-opus-4", 200_000, 32_000, p(15, 75, 1.5, 18.75)],
  ["claude-sonnet-4", 200_000, 64_000, p(3, 15, 0.3, 3.75)],
  ["claude-haiku-4", 200_000, 64_000, p(1, 5, 0.1, 1.25)],
  ["claude-3-7-sonnet", 200_000, 64_000, p(3, 15, 0.3, 3.75)],
  ["claude-3-5-sonnet", 200_000, 8_192, p(3, 15, 0.3, 3.75)],
  ["claude-3-5-haiku", 200_000, 8_192, p(0.8, 4, 0.08, 1)],
  ["claude", 200_000, 8_192],
  ["gpt-5-codex", 400_000, 128_000, p(1.25, 10, 0.125)],
  ["gpt-5-mini", 400_000, 128_000, p(0.25, 2, 0.025)],
  ["gpt-5-nano", 400_000, 128_000, p(0.05, 0.4, 0.005)],
  ["gpt-5", 400_000, 128_000, p(1.25, 10, 0.125)],
  ["gpt-4.1-mini", 1_047_576, 32_768, p(0.4, 1.6, 0.1)],
  ["gpt-4.1-nano", 1_047_576, 32_768, p(0.1, 0.4, 0.025)],
  ["gpt-4.1", 1_047_576, 32_768, p(2, 8, 0.5)],
  ["gpt-4o-mini", 128_000, 16_384, p(0.15, 0.6, 0.075)],
  ["gpt-4o", 128_000, 16_384, p(2.5, 10, 1.25)],
  ["o4-mini", 200_000, 100_000, p(1.1, 4.4, 0.275)],
  ["o3-mini", 200_000, 100_000, p(1.1, 4.4, 0.55)],
  ["o3", 200_000, 100_000, p(2, 8, 0.5)],
  ["deepseek-reasoner", 128_000, 64_000, p(0.55, 2.19, 0.14)],
  ["deepseek-chat", 128_000, 8_192, p(0.27, 1.1, 0.07)],
  ["gemini-2.5-pro", 1_048_576, 65_536, p(1.25, 10, 0.31)],
  ["gemini-2.5-flash", 1_048_576, 65_536, p(0.3, 2.5, 0.075)],
  ["gemini", 1_048_576, 8_192],
  ["qwen3-coder", 262_144, 65_536],
  ["qwen", 32_768, 8_192],
  ["llama", 128_000, 8_192],
].sort((a, b) => (b[0] as string).length - (a[0] as string).length) as Row[];

/** Used when nothing matches: conservative for unknown local models. */
export const DEFAULT_METADATA: ModelMetadata = { contextWindow: 128_000, maxOutputTokens: 8_192 };

export function lookupModel(name: string): ModelMetadata & { known: boolean } {
  const bare = name.toLowerCase().split("/").pop() ?? name.toLowerCase();
  const row = TABLE.find(([pattern]) => bare.startsWith(pattern));
  if (!row) return { ...DEFAULT_METADATA, known: false };
  const [, contextWindow, maxOutputTokens, price] = row;
  return { contextWindow, maxOutputTokens, ...(price ? { price } : {}), known: true };
}
