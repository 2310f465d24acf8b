// Context compression over real stdio with a scripted model: the threshold trigger (reported as
// compaction_update or as a notice, then usage_update, all before the prompt's answer), an
// overflow recovered with one compress-and-retry, /compress and /context, session/load after
// compression, and a 200-turn session that never exceeds its window.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { test } from "node:test";
import { agentText, makeTempDir, sessionUpdates, startAgent, type InProcessAgent } from "../support/in-process-agent";
import { isSummaryRequest, templateSummary } from "../support/compression-fixtures";
import type { RecordedRequest } from "../support/scripted-http";
import { startScriptedModel, type ScriptedModel, type ScriptedReply } from "../support/scripted-model";

const SUMMARY_MARK = "[Hermes context summary]";

/** Prompt size the way a server would count it: the whole request, about 4 characters a token. */
const requestTokens = (request: RecordedRequest) => Math.ceil(JSON.stringify({ messages: request.body.messages, tools: request.body.tools }).length / 4);

/**
 * A model that answers every prompt, writes numbered summaries when asked, reports usage
 * like a real server, and refuses any request larger than `window` with a context overflow.
 */
async function startAgentModel(window: number): Promise<ScriptedModel & { summaries: () => number; overflows: () => number }> {
  let summaries = 0;
  let overflows = 0;
  let answers = 0;
  const handler = (request: RecordedRequest): ScriptedReply => {
    const tokens = requestTokens(request);
    if (tokens > window) {
      overflows++;
      return { status: 400, errorBody: { error: { message: `This model's maximum context length is ${window} tokens. However, your messages resulted in ${tokens} tokens.`, type: "invalid_request_error", code: "context_length_exceeded" } } };
    }
    if (isSummaryRequest(request)) return { text: templateSummary(++summaries), usage: { prompt_tokens: tokens, completion_tokens: 200 } };
    const text = `answer ${++answers}: ${"the work goes on. ".repeat(12)}`;
    return { text, usage: { prompt_tokens: tokens, completion_tokens: Math.ceil(text.length / 4) } };
  };
  const model = await startScriptedModel({ fallback: { handler } });
  return Object.assign(model, { summaries: () => summaries, overflows: () => overflows });
}

function config(url: string, contextLength: number, extra: Record<string, unknown> = {}) {
  return {
    model: { provider: "custom", name: "fake-model", base_url: url, api_key: "sk-test-not-a-real-key", api_mode: "chat_completions", context_length: contextLength },
    sessions: { auto_title: false },
    learning: { review: "off" },
    // The thresholds below are tuned to a fixed tool list: execute_code's schema would move them.
    tools: { disabled: ["execute_code"] },
    ...extra,
  };
}

const prompt = (n: number) => `prompt ${n}: ${"please keep refactoring the parser module. ".repeat(6)}`;
const chatRequests = (model: ScriptedModel) => model.requests.filter((r) => r.path.endsWith("/chat/completions") && !isSummaryRequest(r));
const userContents = (request: RecordedRequest) => request.body.messages.filter((m: any) => m.role === "user").map((m: any) => String(m.content));

async function session(hermes: InProcessAgent): Promise<{ sessionId: string; cwd: string }> {
  await hermes.initialize();
  const cwd = await makeTempDir();
  const { sessionId } = await hermes.newSession(cwd);
  return { sessionId, cwd };
}

test("threshold: compaction_update (in_progress → completed with the summary), then usage_update, before the answer; the system prompt stays byte-identical", async () => {
  const model = await startAgentModel(16_000);
  const hermes = await startAgent({ config: config(model.url, 16_000, { nudges: { memory_interval: 0 } }), clientCapabilities: { session: { compaction: {} } } });
  try {
    const { sessionId } = await session(hermes);
    let turn = 0;
    while (model.summaries() === 0 && turn < 60) await hermes.prompt(sessionId, prompt(turn++));
    assert.equal(model.summaries(), 1, "compressed once the prompt reached half the window");
    assert.equal(model.overflows(), 0);

    const frames = hermes.frames;
    const updateAt = (predicate: (u: any) => boolean) => frames.findIndex((f) => f.method === "session/update" && predicate(f.params.update));
    const started = updateAt((u) => u.sessionUpdate === "compaction_update" && u.status === "in_progress");
    const completed = updateAt((u) => u.sessionUpdate === "compaction_update" && u.status === "completed");
    assert.ok(started >= 0 && completed > started, "in_progress, then completed");
    const done = frames[completed].params.update;
    assert.equal(done.compactionId, frames[started].params.update.compactionId);
    assert.match(done.summary[0].text, /## Goal\nFix the bugs \(summary 1\)/);
    const usageAfter = frames.findIndex((f, i) => i > completed && f.method === "session/update" && f.params.update.sessionUpdate === "usage_update");
    assert.ok(usageAfter > completed, "usage_update after the compaction");
    assert.ok(frames[usageAfter].params.update.used < 8_000, `the new, smaller context: ${frames[usageAfter].params.update.used}`);
    const answerAt = frames.findIndex((f, i) => i > started && f.id !== undefined && f.result?.stopReason);
    assert.ok(answerAt > usageAfter, "every update of the compression comes before the prompt's answer");
    assert.equal(agentText(hermes, sessionId).includes("Context compressed"), false, "no notice when the client shows compactions");

    const requests = chatRequests(model);
    const last = requests.at(-1)!;
    assert.ok(last.body.messages.some((m: any) => String(m.content).includes(SUMMARY_MARK)), "the summary is sent");
    assert.deepEqual(userContents(last)[0], prompt(0), "the head (first exchange) stays");
    assert.ok(!userContents(last).some((c: string) => c === prompt(3)), "the middle is gone");
    assert.equal(last.body.messages[0].content, requests[0].body.messages[0].content, "system prompt byte-identical");
    assert.deepEqual(hermes.invalidUpdates, []);
  } finally {
    await hermes.close();
    await model.close();
  }
});

test("threshold without session.compaction: the agent says so in its message", async () => {
  const model = await startAgentModel(16_000);
  const hermes = await startAgent({ config: config(model.url, 16_000, { nudges: { memory_interval: 0 } }) });
  try {
    const { sessionId } = await session(hermes);
    for (let turn = 0; model.summaries() === 0 && turn < 60; turn++) await hermes.prompt(sessionId, prompt(turn));
    assert.match(agentText(hermes, sessionId), /Context compressed \(\d+ → \d+ messages, about [\d,]+ → [\d,]+ tokens\): earlier turns were summarized/);
    assert.ok(!sessionUpdates(hermes, sessionId).some((u) => (u.sessionUpdate as string) === "compaction_update"), "no compaction_update without the capability");
  } finally {
    await hermes.close();
    await model.close();
  }
});

test("overflow: the provider's context error triggers one compress-and-retry, and the turn answers", async () => {
  const model = await startAgentModel(1_000_000);
  const hermes = await startAgent({ config: config(model.url, 200_000) });
  try {
    const { sessionId } = await session(hermes);
    for (let turn = 0; turn < 15; turn++) await hermes.prompt(sessionId, prompt(turn));
    assert.equal(model.summaries(), 0, "far below the threshold");

    const at = model.requests.length;
    model.enqueue({ status: 400, errorBody: { error: { message: "This model's maximum context length is 8192 tokens.", type: "invalid_request_error", code: "context_length_exceeded" } } });
    const response = await hermes.prompt(sessionId, "one more");
    assert.equal(response.stopReason, "end_turn");
    const after = model.requests.slice(at);
    assert.equal(after.length, 3, "the refused call, the summary, one retry");
    assert.ok(isSummaryRequest(after[1]));
    assert.ok(after[2].body.messages.some((m: any) => String(m.content).includes(SUMMARY_MARK)), "the retry carries the summary");
    assert.ok(after[2].body.messages.length < after[0].body.messages.length);
    assert.match(agentText(hermes, sessionId), /Context compressed/);

    // An overflow again after the retry is not retried a second time: the turn fails cleanly.
    const overflow: ScriptedReply = { status: 400, errorBody: { error: { message: "maximum context length exceeded" } } };
    const overflowUnlessSummary: ScriptedReply = { handler: (request) => (isSummaryRequest(request) ? { text: templateSummary(99) } : overflow) };
    const before = model.requests.length;
    model.enqueue(overflow, overflowUnlessSummary, overflowUnlessSummary);
    await assert.rejects(hermes.prompt(sessionId, "and again"), /context window/);
    assert.equal(model.requests.slice(before).filter((r) => !isSummaryRequest(r)).length, 2, "the call and one retry");
    await hermes.prompt(sessionId, "still alive?").then((r) => assert.equal(r.stopReason, "end_turn"));
  } finally {
    await hermes.close();
    await model.close();
  }
});

test("/context shows the distance to the threshold; /compress compresses now; session/load replays the original messages", async () => {
  const model = await startAgentModel(1_000_000);
  const hermes = await startAgent({ config: config(model.url, 200_000) });
  try {
    const { sessionId, cwd } = await session(hermes);
    for (let turn = 0; turn < 15; turn++) await hermes.prompt(sessionId, prompt(turn));

    const ask = async (text: string) => {
      const before = agentText(hermes, sessionId).length;
      await hermes.prompt(sessionId, text);
      return agentText(hermes, sessionId).slice(before);
    };
    const calls = model.requests.length;
    assert.match((await ask("/context")).split("\n")[0], /^Context: [\d,]+ of 200,000 tokens \([\d.]+%\), 30 messages\. Compression at 100,000 tokens \(50% of the window\): [\d,]+ tokens to go\.$/);
    assert.equal(model.requests.length, calls, "/context does not call the model");

    assert.match(await ask("/compress"), /^Compressed the context: 30 → \d+ messages, about [\d,]+ → [\d,]+ tokens \(earlier turns summarized; this session's history keeps them all\)\.$/);
    assert.equal(model.summaries(), 1);
    assert.match(await ask("/compress"), /^Nothing to compress: all \d+ messages are in the protected first exchange and the last 20 messages\.$/);
    assert.match(await ask("/context"), /Compression at 100,000 tokens/);

    // Another process loads the session: the replay shows what the user saw, not the summary.
    const other = await startAgent({ config: config(model.url, 200_000), env: { HERMES_HOME: hermes.home } });
    try {
      await other.initialize();
      // The first process still has it open: this one takes it over to write (one writer per session).
      await other.agent.request(acp.methods.agent.session.load, { sessionId, cwd, mcpServers: [], _meta: { "hermes/takeOver": true } });
      const replayed = sessionUpdates(other, sessionId).flatMap((u) => (u.sessionUpdate === "user_message_chunk" && u.content.type === "text" ? [u.content.text] : []));
      for (let turn = 0; turn < 15; turn++) assert.ok(replayed.includes(prompt(turn)), `prompt ${turn} replayed`);
      assert.ok(!replayed.some((text) => text.includes(SUMMARY_MARK)), "the summary is not replayed as a message");

      // /context estimates a reloaded session's size until a model call measures it.
      const shown = agentText(other, sessionId).length;
      await other.prompt(sessionId, "/context");
      assert.match(agentText(other, sessionId).slice(shown), /^Context: about [\d,]+ of 200,000 tokens \([\d.]+%\), \d+ messages\. Compression at 100,000 tokens/);

      // …and the model goes on from the compacted history.
      await other.prompt(sessionId, "after the reload");
      const sent = chatRequests(model).at(-1)!;
      assert.ok(sent.body.messages.some((m: any) => String(m.content).includes("Fix the bugs (summary 1)")), "the summary is restored");
      assert.ok(!userContents(sent).includes(prompt(3)), "the compressed middle stays out");
      assert.deepEqual(userContents(sent)[0], prompt(0));
      assert.ok(userContents(sent).includes(prompt(14)) && userContents(sent).at(-1) === "after the reload");
    } finally {
      await other.close();
    }
  } finally {
    await hermes.close();
    await model.close();
  }
});

test("done when: a 200-turn session never exceeds the window, keeps answering, and memory nudges stay ephemeral", async () => {
  const window = 16_000;
  const model = await startAgentModel(window);
  const hermes = await startAgent({ config: config(model.url, window, { nudges: { memory_interval: 10 } }) });
  try {
    const { sessionId } = await session(hermes);
    for (let turn = 0; turn < 200; turn++) {
      const response = await hermes.prompt(sessionId, prompt(turn));
      assert.equal(response.stopReason, "end_turn", `turn ${turn}`);
    }
    const requests = chatRequests(model);
    assert.equal(requests.length, 200, "one answer per prompt");
    assert.equal(model.overflows(), 0, "no request ever exceeded the window");
    const largest = Math.max(...model.requests.map(requestTokens));
    assert.ok(largest <= window, `largest request ${largest} tokens`);
    assert.ok(model.summaries() >= 4, `compressed ${model.summaries()} times`);
    assert.match(agentText(hermes, sessionId), /answer 200:/);

    // The summary is updated, not restarted: each summary request after the first carries the previous one.
    const summaryRequests = model.requests.filter(isSummaryRequest);
    for (const [n, request] of summaryRequests.slice(1).entries()) assert.match(String(request.body.messages[1].content), new RegExp(`<previous-summary>[^]*summary ${n + 1}\\)`));

    // Every 10th prompt carries the memory nudge as the last message, and it is never kept.
    const nudged = requests.map((r) => String(r.body.messages.at(-1).content).includes("save it now with the memory tool"));
    assert.deepEqual(nudged.flatMap((n, i) => (n ? [i + 1] : [])), Array.from({ length: 20 }, (_, i) => (i + 1) * 10));
    assert.ok(!requests.some((r) => r.body.messages.slice(0, -1).some((m: any) => String(m.content).includes("memory tool. Skip this"))), "never stored in the history");
  } finally {
    await hermes.close();
    await model.close();
  }
});
