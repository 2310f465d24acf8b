// The test clients' frame check (test/support/acp-frame-schema.ts) must reject what the 1.21
// schema rejects, or every ACP test's "all frames valid" would pass vacuously.
import assert from "node:assert/strict";
import { test } from "node:test";
import { FrameValidator } from "../support/acp-frame-schema";

test("a valid exchange passes; a bad update, a bad answer, an unknown method and a stray response fail", () => {
  const frames = new FrameValidator();
  frames.check("client→agent", { jsonrpc: "2.0", id: 0, method: "session/new", params: { cwd: "/w", mcpServers: [] } });
  frames.check("agent→client", { jsonrpc: "2.0", id: 0, result: { sessionId: "s1" } });
  frames.check("agent→client", {
    jsonrpc: "2.0",
    method: "session/update",
    params: { sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" }, messageId: "m1" } },
  });
  assert.equal(frames.report(), "");

  frames.check("agent→client", { jsonrpc: "2.0", method: "session/update", params: { sessionId: "s1", update: { sessionUpdate: "agent_message_chunk" } } });
  frames.check("client→agent", { jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/w", mcpServers: [] } });
  frames.check("agent→client", { jsonrpc: "2.0", id: 1, result: { sessionId: 5 } });
  frames.check("agent→client", { jsonrpc: "2.0", method: "session/nonsense", params: {} });
  frames.check("agent→client", { jsonrpc: "2.0", id: 99, result: {} });
  frames.check("agent→client", { jsonrpc: "2.0", method: "_hermes/anything", params: { free: true } });
  assert.deepEqual(
    frames.invalid.map((bad) => bad.error.split(":")[0]),
    ["params", "result of session/new", "no schema defines the method session/nonsense", "a response to no request (id 99)"],
  );
});

test("a boolean config option and a terminal auth method are valid 1.21", () => {
  const frames = new FrameValidator();
  frames.check("client→agent", { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1 } });
  frames.check("agent→client", {
    jsonrpc: "2.0",
    id: 0,
    result: { protocolVersion: 1, authMethods: [{ id: "setup", name: "Setup", type: "terminal", args: ["--setup"] }] },
  });
  frames.check("client→agent", { jsonrpc: "2.0", id: 1, method: "session/set_config_option", params: { sessionId: "s", configId: "thinking", type: "boolean", value: true } });
  frames.check("agent→client", {
    jsonrpc: "2.0",
    id: 1,
    result: { configOptions: [{ id: "thinking", name: "Thinking", type: "boolean", currentValue: true, category: "model_config" }] },
  });
  assert.equal(frames.report(), "");
  frames.check("agent→client", {
    jsonrpc: "2.0",
    method: "session/update",
    params: { sessionId: "s", update: { sessionUpdate: "config_option_update", configOptions: [{ id: "thinking", name: "Thinking", type: "boolean", currentValue: "on" }] } },
  });
  assert.equal(frames.invalid.length, 1, "a boolean option's value is a boolean");
});

test("an update kind only the unstable schema has is judged by it; a stable kind never falls back", () => {
  const frames = new FrameValidator();
  const update = (u: object) => ({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", update: u } });
  frames.check("agent→client", update({ sessionUpdate: "compaction_update", compactionId: "c1", status: "in_progress" }));
  assert.equal(frames.report(), "");
  frames.check("agent→client", update({ sessionUpdate: "compaction_update", status: "in_progress" }));
  frames.check("agent→client", update({ sessionUpdate: "tool_call" }));
  assert.equal(frames.invalid.length, 2);
});
