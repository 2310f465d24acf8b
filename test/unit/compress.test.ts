// Context compression against a real scripted Chat Completions server: where the history is
// cut, that tool pairs and roles stay valid for every provider, the structured summary and
// its iterative update, graceful degradation, and journal restore of the compacted history.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { compressSession, DEFAULT_COMPRESSION, needsCompression, promptTokens, type CompressContext } from "../../acp-server/agent/compress";
import { headLength, planCompaction } from "../../acp-server/agent/compress-plan";
import type { ModelChoice } from "../../acp-server/agent/model-choice";
import { AgentSession } from "../../acp-server/agent/session";
import { SUMMARY_SECTIONS } from "../../acp-server/agent/summarize";
import { toAnthropicConversation } from "../../acp-server/providers/anthropic-messages-mapping";
import { ChatCompletionsProvider } from "../../acp-server/providers/chat-completions";
import type { ChatMessage } from "../../acp-server/providers/types";
import { applyCompaction, summaryOf, SUMMARY_MARK } from "../../acp-server/sessions/compacted-history";
import { restoreSession } from "../../acp-server/sessions/history";
import { INTERRUPTED_RESULT, sanitizeHistory } from "../../acp-server/sessions/history-repair";
import { SessionRecorder } from "../../acp-server/sessions/recorder";
import type { JournalRecord } from "../../acp-server/sessions/types";
import { createLogger } from "../../acp-server/util/log";
import {
  assertValidForProviders,
  assistant,
  codingHistory,
  isSummaryRequest,
  recordingObserver,
  summaryRequestText,
  templateSummary,
  tool,
  user,
} from "../support/compression-fixtures";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();
const log = createLogger("test");

function choice(url: string, contextWindow = 32_000, name = "fake-model"): ModelChoice {
  return { id: `custom/${name}`, provider: new ChatCompletionsProvider({ provider: "custom", model: name, baseURL: url, apiKey: "sk-test" }), maxRetries: 0, contextWindow, maxOutputTokens: 4_096, vision: true };
}

/** A session with `history`, journaling into `records` like the real recorder does. */
function sessionWith(history: ChatMessage[]): { session: AgentSession; records: JournalRecord[] } {
  const records: JournalRecord[] = [{ t: "meta", v: 1, at: 1, session: { id: "s1", cwd: "/tmp", createdAt: 1, source: "test" } }];
  const recorder = new SessionRecorder({ append: (_id, record) => void records.push(record) }, "s1", 0, log);
  const session = new AgentSession("s1", "/tmp", "default", { recorder });
  for (const message of history) session.append(message);
  return { session, records };
}

function context(session: AgentSession, model: ModelChoice, extra: Partial<CompressContext> = {}): CompressContext & { observer: ReturnType<typeof recordingObserver> } {
  const observer = recordingObserver();
  return { session, models: [model], observer, signal: new AbortController().signal, log, systemPrompt: "You are Hermes.", tools: [], settings: DEFAULT_COMPRESSION, ...extra } as CompressContext & {
    observer: ReturnType<typeof recordingObserver>;
  };
}

const userTexts = (history: ChatMessage[]) => history.flatMap((m) => (m.role === "user" ? m.content.map((p) => (p.type === "text" ? p.text : "")) : []));

describe("compression plan", () => {
  const history = codingHistory(12);
  const plan = planCompaction(history, { protectLast: 20, tailBudgetTokens: 2_000, maxTailTokens: 20_000 })!;

  test("the head is the first exchange: the first prompt and its reply with the reply's tool results", () => {
    assert.equal(headLength(history), 4);
    assert.equal(plan.head, 4);
  });

  test("the tail keeps at least the last 20 messages and never starts on a tool result", () => {
    assert.ok(history.length - plan.tailStart >= 20);
    assert.notEqual(history[plan.tailStart].role, "tool");
  });

  test("the tail extends to the last real user message when it fits", () => {
    const lastUser = history.findLastIndex((m) => m.role === "user");
    assert.ok(plan.tailStart <= lastUser);
  });

  test("a token budget keeps more than 20 messages when they are small", () => {
    const small = codingHistory(12, 2, 10);
    const roomy = planCompaction(small, { protectLast: 20, tailBudgetTokens: 1_000, maxTailTokens: 20_000 })!;
    assert.ok(small.length - roomy.tailStart > 20, `${small.length - roomy.tailStart} kept`);
  });

  test("a request that cannot stay in the tail is quoted for the summary instead", () => {
    // One prompt followed by a long tool loop: the prompt is far from the end.
    const loop = [user("first"), assistant("hi"), user("refactor everything in src/"), ...codingHistory(8).filter((m) => m.role !== "user")];
    const quoted = planCompaction(loop, { protectLast: 20, tailBudgetTokens: 500, maxTailTokens: 3_000 })!;
    assert.equal(quoted.quotedRequest, "refactor everything in src/");
  });

  test("nothing to compress when everything is head and protected tail", () => {
    assert.equal(planCompaction(codingHistory(2, 1, 10), { protectLast: 20, tailBudgetTokens: 100, maxTailTokens: 20_000 }), undefined);
  });
});

describe("sanitizing", () => {
  test("orphaned tool results are dropped, unanswered calls answered, consecutive users merged", () => {
    const broken: ChatMessage[] = [
      user("a"),
      tool("ghost", "stray result"),
      assistant("calling", [{ id: "c1" }, { id: "c2" }]),
      tool("c2", "second first"),
      user("b"),
      user("c"),
      assistant("plain"),
      assistant("another", [{ id: "c3" }]),
      tool("c3", "ok"),
    ];
    const clean = sanitizeHistory(broken);
    assertValidForProviders(clean);
    assert.ok(!clean.some((m) => m.role === "tool" && m.toolCallId === "ghost"));
    assert.deepEqual(clean.filter((m) => m.role === "tool").map((m) => (m.role === "tool" ? [m.toolCallId, m.content] : [])), [
      ["c1", INTERRUPTED_RESULT],
      ["c2", "second first"],
      ["c3", "ok"],
    ]);
    assert.deepEqual(userTexts(clean), ["a", "b", "c"]);
    assert.deepEqual(sanitizeHistory(clean), clean, "idempotent");
  });

  test("a compacted history is valid for every provider whichever way the cut falls", () => {
    const history = codingHistory(10);
    for (let tail = 0; tail < 40; tail++) {
      for (const head of [0, 1, 4]) {
        const compacted = applyCompaction(history, { head, tail, summary: "S" });
        assertValidForProviders(compacted);
        assert.equal(compacted.filter((m) => summaryOf(m) !== undefined).length, 1, "exactly one summary");
        // Anthropic: strict alternation after mapping, tool_result right after tool_use.
        const anthropic = toAnthropicConversation([{ role: "system", content: "sys" }, ...compacted]).messages;
        anthropic.forEach((m, i) => i > 0 && assert.notEqual(m.role, anthropic[i - 1].role));
      }
    }
  });
});

describe("compressSession", () => {
  test("summarizes the middle into the template; head and tail stay verbatim; the prompt shrinks", async () => {
    const model = scripted();
    const before = model.requests.length;
    model.enqueue({ text: templateSummary(1) });
    const history = codingHistory(12);
    const { session } = sessionWith(history);
    const ctx = context(session, choice(model.url));
    const tokensBefore = promptTokens(session, ctx.systemPrompt, []);

    const outcome = await compressSession(ctx, "threshold");
    assert.equal(outcome.kind, "compressed");
    const after = session.history;
    assertValidForProviders(after);
    assert.deepEqual(after.slice(0, 2), history.slice(0, 2), "the head's prompt and reply verbatim");
    for (const message of after.slice(2, 4)) assert.match(message.role === "tool" ? message.content : "", /^output of t0c0\w: x+\n\[Hermes: older tool output cleared to save context \(1217 characters\)\]$/);
    assert.deepEqual(after.slice(-20), history.slice(-20), "the last 20 messages verbatim");
    const summaries = after.map(summaryOf).filter((s) => s !== undefined);
    assert.deepEqual(summaries, [templateSummary(1)]);
    assert.ok(promptTokens(session, ctx.systemPrompt, []) < tokensBefore / 2);

    const request = model.requests[before];
    assert.ok(isSummaryRequest(request));
    for (const heading of SUMMARY_SECTIONS) assert.ok(request.body.messages[0].content.includes(heading), heading);
    assert.match(summaryRequestText(request), /prompt 1: please fix bug #1/);
    assert.deepEqual(request.body.tools, undefined, "the summary call offers no tools");

    assert.equal(ctx.observer.started.length, 1);
    assert.equal(ctx.observer.finished[0].report.status, "completed");
    assert.equal(ctx.observer.finished[0].id, ctx.observer.started[0]);
    assert.equal(ctx.observer.contextUsages.length, 1, "the new context size is reported");
  });

  test("a second compression updates the first summary instead of starting over", async () => {
    const model = scripted();
    model.enqueue({ text: templateSummary(1) });
    const { session } = sessionWith(codingHistory(12));
    const ctx = context(session, choice(model.url));
    await compressSession(ctx, "threshold");
    for (const message of codingHistory(8).map(renumber(100))) session.append(message);

    const at = model.requests.length;
    model.enqueue({ text: templateSummary(2) });
    assert.equal((await compressSession(ctx, "threshold")).kind, "compressed");
    const sent = summaryRequestText(model.requests[at]);
    assert.match(sent, /<previous-summary>\n## Goal\nFix the bugs \(summary 1\)/);
    assert.match(sent, /prompt 100/);
    assert.doesNotMatch(sent.split("<new-turns>")[1], /\[Hermes context summary\]/, "the old summary is not summarized as a turn");
    assert.deepEqual(session.history.map(summaryOf).filter((s) => s !== undefined), [templateSummary(2)], "one summary, the updated one");
    assertValidForProviders(session.history);
  });

  test("the journal keeps every message; restoring applies the compaction to the same history", async () => {
    const model = scripted();
    model.enqueue({ text: templateSummary(1) }, { text: templateSummary(2) });
    const history = codingHistory(12);
    const { session, records } = sessionWith(history);
    const ctx = context(session, choice(model.url));
    await compressSession(ctx, "threshold");
    for (const message of codingHistory(8).map(renumber(100))) session.append(message);
    await compressSession(ctx, "command");
    session.append(user("after both"));

    const messages = records.filter((r) => r.t === "message");
    assert.equal(messages.length, history.length + codingHistory(8).length + 1, "every original message is journaled");
    const compactions = records.filter((r) => r.t === "update" && r.compaction);
    assert.equal(compactions.length, 2, "each compaction is journaled, marked as such");
    const restored = restoreSession({ id: "s1", cwd: "/tmp", createdAt: 1, source: "test" }, records);
    assert.deepEqual(restored.history, session.history);
  });

  test("a failing summary call degrades to a marker that keeps the earlier summary; nothing throws", async () => {
    const model = scripted();
    model.enqueue({ text: templateSummary(1) });
    const { session } = sessionWith(codingHistory(12));
    const ctx = context(session, choice(model.url));
    await compressSession(ctx, "threshold");
    for (const message of codingHistory(8).map(renumber(100))) session.append(message);

    model.enqueue({ status: 500 });
    const outcome = await compressSession(ctx, "overflow");
    assert.equal(outcome.kind, "compressed");
    const report = ctx.observer.finished.at(-1)!.report;
    assert.equal(report.status, "degraded");
    assert.match(report.error ?? "", /500/);
    const summary = session.history.map(summaryOf).find((s) => s !== undefined)!;
    assert.match(summary, /earlier messages were removed/);
    assert.match(summary, /summary 1/, "the earlier summary survives");
    assertValidForProviders(session.history);
  });

  test("the auxiliary model writes the summary; the main model is the fallback", async () => {
    const model = scripted();
    const at = model.requests.length;
    model.enqueue({ status: 401 }, { text: templateSummary(7) });
    const { session } = sessionWith(codingHistory(12));
    const ctx = context(session, choice(model.url), { summarizer: choice(model.url, 32_000, "aux-model") });
    await compressSession(ctx, "threshold");
    assert.deepEqual(model.requests.slice(at).map((r) => r.body.model), ["aux-model", "fake-model"]);
    assert.match(session.history.map(summaryOf).find((s) => s !== undefined)!, /summary 7/);
  });

  test("the trigger: prompt tokens ≥ threshold × window, from the last usage plus what came after", () => {
    const { session } = sessionWith(codingHistory(2, 1, 10));
    const model = choice("http://127.0.0.1:9/v1", 10_000);
    const base = { session, models: [model], systemPrompt: "sys", tools: [], settings: DEFAULT_COMPRESSION };
    session.recordUsage({ inputTokens: 4_800, outputTokens: 100 }, model);
    assert.deepEqual(session.lastCall, { tokens: 4_900, historyLength: session.history.length });
    assert.equal(needsCompression(base), false);
    session.append(tool("late", "y".repeat(800)));
    assert.equal(needsCompression(base), true, "4,900 reported + ~200 new ≥ 5,000");
    assert.equal(needsCompression({ ...base, settings: { ...DEFAULT_COMPRESSION, enabled: false } }), false);
  });
});

/** Renames a fixture history's prompts and ids so a second batch does not repeat the first. */
function renumber(offset: number): (message: ChatMessage) => ChatMessage {
  const bump = (text: string) => text.replace(/(\d+)/, (n) => String(Number(n) + offset));
  return (message) => {
    if (message.role === "user") return user(bump((message.content[0] as { text: string }).text));
    if (message.role === "tool") return { ...message, toolCallId: `${message.toolCallId}-${offset}` };
    if (message.role === "assistant" && message.toolCalls) return { ...message, toolCalls: message.toolCalls.map((c) => ({ ...c, id: `${c.id}-${offset}` })) };
    return message;
  };
}

test("the summary marker opens the summary message", () => {
  const compacted = applyCompaction(codingHistory(10), { head: 4, tail: 10, summary: "S" });
  const summary = compacted.find((m) => summaryOf(m) !== undefined);
  assert.ok(summary?.role === "user" && summary.content[0].type === "text" && summary.content[0].text.startsWith(SUMMARY_MARK));
});
