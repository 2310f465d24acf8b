// Retries and fallbacks of one model call, against real providers talking HTTP to the
// scripted Chat Completions server.
import assert from "node:assert/strict";
import { test } from "node:test";
import { callWithRecovery, ModelsExhaustedError, retryDelay } from "../../acp-server/agent/model-call";
import type { ModelChoice } from "../../acp-server/agent/model-choice";
import type { TurnObserver } from "../../acp-server/agent/turn-io";
import { ChatCompletionsProvider } from "../../acp-server/providers/chat-completions";
import { ContextOverflowError, ProviderError, type ModelRequest } from "../../acp-server/providers/types";
import { createLogger } from "../../acp-server/util/log";
import { recordingObserver } from "../support/compression-fixtures";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();
const log = createLogger("test");
const request: ModelRequest = { messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }], tools: [] };

function choice(name: string, url: string, maxRetries = 2, idleTimeoutMs?: number): ModelChoice {
  return {
    id: `custom/${name}`,
    provider: new ChatCompletionsProvider({ provider: "custom", model: name, baseURL: url, idleTimeoutMs }),
    maxRetries,
    contextWindow: 1000,
    maxOutputTokens: 100,
    vision: true,
  };
}

const options = (models: ModelChoice[], obs: TurnObserver, signal = new AbortController().signal) => ({ models, observer: obs, signal, retryBaseDelayMs: 5, log });

test("a 429 is retried after the server's retry-after, and the user is told", async () => {
  const model = scripted();
  const before = model.requests.length;
  model.enqueue({ status: 429, headers: { "retry-after-ms": "20" } }, { text: "ok now" });
  const obs = recordingObserver();
  const result = await callWithRecovery(request, options([choice("a", model.url)], obs));
  assert.equal(result.kind, "done");
  assert.equal(result.kind === "done" && result.reply.text, "ok now");
  assert.equal(model.requests.length - before, 2);
  assert.equal(obs.notices.length, 1);
  assert.match(obs.notices[0], /HTTP 429.*Retrying in 20 ms \(1\/2\)/);
});

test("500s, a truncated stream and a stalled stream are retried; the partial reply is discarded", async () => {
  const model = scripted();
  model.enqueue({ status: 500 }, { text: "half", truncate: true }, { text: "stuck", hang: true }, { text: "whole answer" });
  const obs = recordingObserver();
  const result = await callWithRecovery(request, options([choice("b", model.url, 3, 200)], obs));
  assert.equal(result.kind === "done" && result.reply.text, "whole answer", "only the successful attempt's text is kept");
  assert.equal(obs.notices.length, 3);
  assert.match(obs.notices[1], /ended without finishing.*partial reply above is discarded/);
  assert.match(obs.notices[2], /stalled/);
});

test("a refused key is not retried: the next model is tried at once, and the switch is announced", async () => {
  const model = scripted();
  const before = model.requests.length;
  model.enqueue({ status: 401 }, { text: "from the fallback" });
  const obs = recordingObserver();
  const result = await callWithRecovery(request, options([choice("main", model.url), choice("backup", model.url)], obs));
  assert.equal(result.kind === "done" && result.model.id, "custom/backup");
  const bodies = model.requests.slice(before).map((r) => r.body.model);
  assert.deepEqual(bodies, ["main", "backup"]);
  assert.equal(obs.notices.length, 1);
  assert.match(obs.notices[0], /Switching to custom\/backup after custom\/main failed: .*HTTP 401/);
});

test("when every model fails, the error names what happened to each", async () => {
  const model = scripted();
  model.enqueue({ status: 503 }, { status: 503 }, { status: 401 });
  const obs = recordingObserver();
  await assert.rejects(callWithRecovery(request, options([choice("x", model.url, 1), choice("y", model.url, 0)], obs)), (error: unknown) => {
    assert.ok(error instanceof ModelsExhaustedError);
    assert.equal(error.attempts.length, 2);
    assert.match(error.attempts[0], /custom\/x: .*HTTP 503/);
    assert.match(error.attempts[1], /custom\/y: .*HTTP 401/);
    assert.equal(error.last.kind, "auth");
    return true;
  });
});

test("a context overflow is not retried or switched: compression must handle it", async () => {
  const model = scripted();
  model.enqueue({ status: 400, errorBody: { error: { message: "This model's maximum context length is 8192 tokens", type: "invalid_request_error", code: "context_length_exceeded" } } });
  const obs = recordingObserver();
  await assert.rejects(callWithRecovery(request, options([choice("small", model.url), choice("other", model.url)], obs)), ContextOverflowError);
  assert.deepEqual(obs.notices, []);
});

test("cancel during the retry wait ends the call at once", async () => {
  const model = scripted();
  model.enqueue({ status: 429, headers: { "retry-after": "30" } });
  const controller = new AbortController();
  const obs = recordingObserver();
  // The "Retrying in 30 s" notice comes just before the wait starts: cancel once it has begun.
  obs.notice = (text: string) => {
    obs.notices.push(text);
    setImmediate(() => controller.abort());
  };
  const result = await callWithRecovery(request, { ...options([choice("c", model.url)], obs, controller.signal) });
  assert.match(obs.notices[0] ?? "", /Retrying in 30 s/);
  assert.equal(result.kind, "cancelled");
});

test("retry delays double from the base, with jitter, and honour retry-after", () => {
  const error = new ProviderError("x", { kind: "server" });
  for (const [attempt, expected] of [[0, 1000], [1, 2000], [2, 4000], [10, 30_000]] as const) {
    const delay = retryDelay(error, attempt, 1000);
    assert.ok(delay >= expected * 0.8 && delay <= expected * 1.2, `attempt ${attempt}: ${delay}`);
  }
  assert.equal(retryDelay(new ProviderError("x", { kind: "rate_limit", retryAfterMs: 7000 }), 0, 1000), 7000);
});
