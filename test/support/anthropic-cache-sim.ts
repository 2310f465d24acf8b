// A model of Anthropic's prompt cache, for the scripted server and the benchmarks: given
// real request bodies it answers with the usage numbers the API would report, so tests can
// check that breakpoints are placed where they actually produce cache hits.
//
// The model: the prompt is a sequence of blocks in cache order (tools, then system blocks,
// then every message's content blocks). A prefix is identified by the content of its blocks
// (cache_control markers excluded, so moving a breakpoint does not change the prefix) and the
// model. A request writes the prefix ending at each of its breakpoints to the cache. At each
// breakpoint it looks back over the breakpoint itself and up to LOOKBACK_BLOCKS blocks before
// it for the longest prefix cached earlier; the longest hit over all breakpoints is read.
// Tokens: each block is ceil(JSON length / 4). No expiry, no minimum cacheable length.
import { createHash } from "node:crypto";

export const LOOKBACK_BLOCKS = 20;

export interface CacheUsage {
  /** Tokens after the last breakpoint (never cached). */
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

export interface CacheTotals {
  requests: number;
  /** Whole prompts: input + cache read + cache write. */
  promptTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  uncachedTokens: number;
}

export interface CacheBlock {
  tokens: number;
  breakpoint: boolean;
  /** Identity of the prefix ending with this block. */
  key: string;
}

/** The request's blocks in cache order, each with the key of the prefix it ends. */
export function cacheBlocks(body: any): CacheBlock[] {
  const raw: unknown[] = [];
  for (const tool of body?.tools ?? []) raw.push(tool);
  const system = body?.system;
  if (typeof system === "string") raw.push({ type: "text", text: system });
  else for (const block of system ?? []) raw.push(block);
  for (const message of body?.messages ?? []) {
    const content = typeof message.content === "string" ? [{ type: "text", text: message.content }] : (message.content ?? []);
    // The role is part of the identity: the same text as user or assistant is a different prompt.
    for (const block of content) raw.push({ role: message.role, block });
  }
  let key = createHash("sha256").update(String(body?.model ?? "")).digest("hex");
  return raw.map((item) => {
    const { json, breakpoint } = withoutCacheControl(item);
    key = createHash("sha256").update(key).update(json).digest("hex");
    return { tokens: Math.ceil(json.length / 4), breakpoint, key };
  });
}

function withoutCacheControl(item: unknown): { json: string; breakpoint: boolean } {
  let breakpoint = false;
  const json = JSON.stringify(item, (name, value) => {
    if (name === "cache_control") {
      if (value != null) breakpoint = true;
      return undefined;
    }
    return value;
  });
  return { json: json ?? "", breakpoint };
}

export class AnthropicCacheSim {
  private readonly cached = new Set<string>();
  readonly totals: CacheTotals = { requests: 0, promptTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, uncachedTokens: 0 };

  /** Computes the usage of one request and updates the cache and the totals. */
  process(body: any): CacheUsage {
    const blocks = cacheBlocks(body);
    const breakpoints = blocks.flatMap((block, i) => (block.breakpoint ? [i] : []));
    let hitEnd = -1; // index of the last block of the longest cached prefix found
    for (const b of breakpoints) {
      for (let j = b; j >= Math.max(0, b - LOOKBACK_BLOCKS); j--) {
        if (this.cached.has(blocks[j].key)) {
          hitEnd = Math.max(hitEnd, j);
          break; // the first hit walking back is the longest for this breakpoint
        }
      }
    }
    const lastBreakpoint = breakpoints.at(-1) ?? -1;
    const sum = (from: number, to: number) => blocks.slice(from, to).reduce((total, block) => total + block.tokens, 0);
    const usage: CacheUsage = {
      cache_read_input_tokens: sum(0, hitEnd + 1),
      cache_creation_input_tokens: sum(hitEnd + 1, lastBreakpoint + 1),
      input_tokens: sum(lastBreakpoint + 1, blocks.length),
    };
    for (const b of breakpoints) this.cached.add(blocks[b].key);

    this.totals.requests++;
    this.totals.promptTokens += usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens;
    this.totals.cacheReadTokens += usage.cache_read_input_tokens;
    this.totals.cacheWriteTokens += usage.cache_creation_input_tokens;
    this.totals.uncachedTokens += usage.input_tokens;
    return usage;
  }

  /** Share of all prompt tokens so far that were read from the cache (0..1). */
  get readShare(): number {
    return this.totals.promptTokens === 0 ? 0 : this.totals.cacheReadTokens / this.totals.promptTokens;
  }

  /** Prefixes currently cached. */
  get size(): number {
    return this.cached.size;
  }

  clear(): void {
    this.cached.clear();
    Object.assign(this.totals, { requests: 0, promptTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, uncachedTokens: 0 });
  }
}
