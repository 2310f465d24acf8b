// The prompt-cache model the scripted Anthropic server reports usage from.
import assert from "node:assert/strict";
import { test } from "node:test";
import { AnthropicCacheSim, cacheBlocks, LOOKBACK_BLOCKS } from "../support/anthropic-cache-sim";

const mark = { type: "ephemeral" };
const text = (t: string, breakpoint = false) => ({ type: "text", text: t, ...(breakpoint ? { cache_control: mark } : {}) });
const user = (...content: object[]) => ({ role: "user", content });
const assistant = (...content: object[]) => ({ role: "assistant", content });
const tokens = (body: object) => cacheBlocks(body).reduce((sum, block) => sum + block.tokens, 0);

const system = [text("You are a careful coding agent. ".repeat(20), true)];
const tools = [{ name: "read_file", description: "Read a file", input_schema: { type: "object" } }];

test("blocks come in cache order (tools, system, messages) and sizes are ceil(JSON length / 4)", () => {
  const body = { model: "m", tools, system: "sys", messages: [{ role: "user", content: "hi" }] };
  const blocks = cacheBlocks(body);
  assert.equal(blocks.length, 3);
  assert.equal(blocks[0].tokens, Math.ceil(JSON.stringify(tools[0]).length / 4));
  assert.equal(blocks[1].tokens, Math.ceil(JSON.stringify({ type: "text", text: "sys" }).length / 4));
  assert.equal(blocks[2].tokens, Math.ceil(JSON.stringify({ role: "user", block: { type: "text", text: "hi" } }).length / 4));
  assert.ok(blocks.every((block) => !block.breakpoint));
});

test("the prefix identity ignores cache_control but not content, role or model", () => {
  const a = cacheBlocks({ model: "m", messages: [user(text("same", true))] });
  const b = cacheBlocks({ model: "m", messages: [user(text("same"))] });
  assert.equal(a[0].key, b[0].key);
  assert.equal(a[0].tokens, b[0].tokens, "the marker is not counted either");
  assert.ok(a[0].breakpoint && !b[0].breakpoint);
  assert.notEqual(cacheBlocks({ model: "m", messages: [assistant(text("same"))] })[0].key, a[0].key);
  assert.notEqual(cacheBlocks({ model: "other", messages: [user(text("same"))] })[0].key, a[0].key);
  assert.notEqual(cacheBlocks({ model: "m", messages: [user(text("samE"))] })[0].key, a[0].key);
});

test("no breakpoints: everything is uncached input and nothing is written", () => {
  const sim = new AnthropicCacheSim();
  const body = { model: "m", system: [text("plain")], messages: [user(text("hello"))] };
  assert.deepEqual(sim.process(body), { input_tokens: tokens(body), cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
  assert.deepEqual(sim.process(body).cache_read_input_tokens, 0);
  assert.equal(sim.size, 0);
});

test("first call writes up to the last breakpoint; the next turn reads it back", () => {
  const sim = new AnthropicCacheSim();
  const turn1 = { model: "m", tools, system, messages: [user(text("question one", true))] };
  const first = sim.process(turn1);
  assert.equal(first.cache_read_input_tokens, 0);
  assert.equal(first.cache_creation_input_tokens, tokens(turn1));
  assert.equal(first.input_tokens, 0);

  // The old breakpoint moved to a later message: the prefix is the same content, so it hits.
  const turn2 = {
    model: "m",
    tools,
    system,
    messages: [user(text("question one", true)), assistant(text("answer one", true)), user(text("question two", true)), user(text("tail"))],
  };
  const second = sim.process(turn2);
  assert.equal(second.cache_read_input_tokens, tokens(turn1));
  const tail = cacheBlocks({ messages: [user(text("tail"))] })[0].tokens;
  assert.equal(second.cache_creation_input_tokens, tokens(turn2) - tokens(turn1) - tail);
  assert.equal(second.input_tokens, tail);

  assert.equal(sim.totals.requests, 2);
  assert.equal(sim.totals.promptTokens, tokens(turn1) + tokens(turn2));
  assert.equal(sim.totals.cacheReadTokens, tokens(turn1));
  assert.ok(Math.abs(sim.readShare - tokens(turn1) / (tokens(turn1) + tokens(turn2))) < 1e-12);
});

test("a change early in the prompt (the system prompt) misses everything after it", () => {
  const sim = new AnthropicCacheSim();
  sim.process({ model: "m", system, messages: [user(text("q", true))] });
  const changed = { model: "m", system: [text("A different system prompt", true)], messages: [user(text("q", true))] };
  const usage = sim.process(changed);
  assert.equal(usage.cache_read_input_tokens, 0);
  assert.equal(usage.cache_creation_input_tokens, tokens(changed));
});

test("the lookback reaches exactly LOOKBACK_BLOCKS blocks before a breakpoint", () => {
  const blocksAfter = (n: number) => Array.from({ length: n }, (_, i) => text(`block ${i}`));
  for (const [added, hits] of [
    [LOOKBACK_BLOCKS, true],
    [LOOKBACK_BLOCKS + 1, false],
  ] as const) {
    const sim = new AnthropicCacheSim();
    sim.process({ model: "m", messages: [user(text("start", true))] });
    // Only a breakpoint at the very end: the cached prefix is `added` blocks back.
    const body = { model: "m", messages: [user(text("start"), ...blocksAfter(added - 1), text("end", true))] };
    const usage = sim.process(body);
    assert.equal(usage.cache_read_input_tokens > 0, hits, `${added} blocks later`);
  }
});

test("an intermediate breakpoint rescues a hit beyond the lookback of the last one", () => {
  const sim = new AnthropicCacheSim();
  const first = { model: "m", messages: [user(text("start", true))] };
  sim.process(first);
  const many = Array.from({ length: 30 }, (_, i) => text(`result ${i}`));
  const body = { model: "m", messages: [user(text("start"), text("near", true), ...many, text("end", true))] };
  assert.equal(sim.process(body).cache_read_input_tokens, tokens(first));
});

test("the longest hit over all breakpoints wins", () => {
  const sim = new AnthropicCacheSim();
  const short = { model: "m", messages: [user(text("a", true))] };
  const long = { model: "m", messages: [user(text("a"), text("b", true))] };
  sim.process(short);
  sim.process(long);
  const body = { model: "m", messages: [user(text("a", true), text("b", true), text("c", true))] };
  assert.equal(sim.process(body).cache_read_input_tokens, tokens(long));
  sim.clear();
  assert.equal(sim.size, 0);
  assert.equal(sim.totals.requests, 0);
});
