// The loop under pressure: the iteration budget runs out, tools fail or get bad
// arguments, and the model endpoint errors. The turn goes on, or ends cleanly, and the
// server keeps serving.
import assert from "node:assert/strict";
import { test } from "node:test";
import { useScriptedModel } from "../support/scripted-model";
import { agentText, makeTempDir, scriptedConfig, sessionUpdates, startAgent } from "../support/in-process-agent";

const scripted = useScriptedModel();

test("a spent budget gets one last call without tools and ends with max_turn_requests", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const first = model.requests.length;
  const todo = (n: number) => ({ toolCalls: [{ id: `t${n}`, name: "todo", arguments: { todos: [{ id: "1", content: `step ${n}`, status: "in_progress" }] } }] });
  model.enqueue(todo(1), todo(2), { text: "Summary: I planned two steps." });
  const hermes = await startAgent({ config: scriptedConfig(model.url, { agent: { max_turns: 2 } }) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const response = await hermes.prompt(sessionId, "keep planning forever");
    assert.equal(response.stopReason, "max_turn_requests");

    const calls = model.requests.slice(first);
    assert.equal(calls.length, 3);
    assert.ok(Array.isArray(calls[0].body.tools) && calls[0].body.tools.length > 0);
    assert.equal(calls[2].body.tools, undefined, "the summary call offers no tools");
    assert.match(JSON.stringify(calls[2].body.messages.at(-1)), /budget/);

    const updates = sessionUpdates(hermes, sessionId);
    const plans = updates.filter((u) => u.sessionUpdate === "plan");
    assert.equal(plans.length, 2, "each todo call published the plan");
    const text = updates.map((u) => (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? u.content.text : "")).join("");
    assert.equal(text, "Summary: I planned two steps.");
  } finally {
    await hermes.close();
  }
});

test("failing tools, broken arguments and unknown tools become results and the turn goes on", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const first = model.requests.length;
  model.enqueue(
    {
      toolCalls: [
        { id: "missing", name: "read_file", arguments: { path: "does/not/exist.txt" } },
        { id: "badjson", name: "read_file", arguments: "{not json" },
        { id: "badargs", name: "patch", arguments: { path: "x.txt" } },
        { id: "unknown", name: "teleport", arguments: {} },
      ],
    },
    { text: "I could not do that." },
  );
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const response = await hermes.prompt(sessionId, "try some things");
    assert.equal(response.stopReason, "end_turn");

    const updates = sessionUpdates(hermes, sessionId);
    for (const id of ["missing", "badjson", "badargs", "unknown"]) {
      const end = updates.find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === id && u.status === "failed");
      assert.ok(end, `${id} ended failed`);
    }
    const results = model.requests[first + 1].body.messages.filter((m: any) => m.role === "tool");
    assert.deepEqual(results.map((m: any) => m.tool_call_id), ["missing", "badjson", "badargs", "unknown"], "results come back in call order");
    assert.match(results[0].content, /not found/i);
    assert.match(results[1].content, /not valid JSON/);
    assert.match(results[2].content, /invalid arguments/);
    assert.match(results[2].content, /old_string/);
    assert.match(results[3].content, /Unknown tool \\"teleport\\"/);
    assert.deepEqual(hermes.invalidUpdates, []);
  } finally {
    await hermes.close();
  }
});

test("read-only calls in one reply run concurrently but report in call order", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const first = model.requests.length;
  model.enqueue(
    {
      toolCalls: [
        { id: "r1", name: "search_files", arguments: { pattern: "*.md", target: "files" } },
        { id: "r2", name: "search_files", arguments: { pattern: "nothing-here", target: "content" } },
      ],
    },
    { text: "done" },
  );
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    assert.equal((await hermes.prompt(sessionId, "look around")).stopReason, "end_turn");
    const updates = sessionUpdates(hermes, sessionId).filter((u) => u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update");
    // Both calls are announced before either runs.
    assert.deepEqual(updates.slice(0, 2).map((u) => u.sessionUpdate), ["tool_call", "tool_call"]);
    const results = model.requests[first + 1].body.messages.filter((m: any) => m.role === "tool");
    assert.deepEqual(results.map((m: any) => m.tool_call_id), ["r1", "r2"]);
  } finally {
    await hermes.close();
  }
});

test("a model endpoint error answers the prompt with a JSON-RPC error and the session lives on", async () => {
  const model = scripted();
  const project = await makeTempDir();
  model.enqueue({ status: 401, errorBody: { error: { message: "Incorrect API key provided", type: "invalid_request_error" } } });
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    await assert.rejects(hermes.prompt(sessionId, "hello"), (error: any) => {
      assert.equal(error.code, -32603);
      assert.match(error.message, /Incorrect API key provided/);
      return true;
    });
    // The answer in the conversation names every place a key may come from, and the one in use.
    const said = agentText(hermes, sessionId);
    for (const place of ["HERMES_API_KEY", "model.api_key in", `HERMES_127_0_0_1_${new URL(model.url).port}_API_KEY`, ".env"]) assert.ok(said.includes(place), `${place} in: ${said}`);
    assert.match(said, /key in use now comes from .*config\.yaml \(model\.api_key\)/);
    model.enqueue({ text: "back again" });
    assert.equal((await hermes.prompt(sessionId, "hello again")).stopReason, "end_turn");
  } finally {
    await hermes.close();
  }
});

test("an unreachable model endpoint is a clear error, not a hang", async () => {
  const project = await makeTempDir();
  // The refused connection is retried (max_retries) before the error; a short first delay keeps
  // the same path without sleeping through the default 1 + 2 + 4 s backoff.
  const hermes = await startAgent({ config: scriptedConfig("http://127.0.0.1:9/v1", { agent: { retry_base_delay: 0.01 } }) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    await assert.rejects(hermes.prompt(sessionId, "hello"), /could not reach http:\/\/127\.0\.0\.1:9\/v1/);
  } finally {
    await hermes.close();
  }
});
