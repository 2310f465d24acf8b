// An MCP server's elicitation/create, end to end: a real MCP server (the SDK's, over stdio) asks
// during a tool call; Hermes forwards it to the editor as an ACP elicitation over real pipes and
// sends the editor's answer back unchanged (defaults applied, checked against the server's form).
// The server reports what it saw as the tool's result, read here from the model's next request.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { makeTempDir, scriptedConfig, sessionUpdates, startAgent, type InProcessOptions } from "../support/in-process-agent";
import { ROOT } from "../support/acp-harness";
import { useScriptedModel, type RecordedRequest } from "../support/scripted-model";
import { zCompleteElicitationNotification, zCreateElicitationRequest } from "../../node_modules/@agentclientprotocol/sdk/dist/v1/schema/zod.gen.js";

/** Every elicitation frame the agent sent is valid against the SDK's schema. */
function assertFramesValid(frames: any[]): void {
  for (const frame of frames) {
    if (frame.method === "elicitation/create") assert.ok(zCreateElicitationRequest.safeParse(frame.params).success, JSON.stringify(frame.params));
    if (frame.method === "elicitation/complete") assert.ok(zCompleteElicitationNotification.safeParse(frame.params).success, JSON.stringify(frame.params));
  }
}

const scripted = useScriptedModel();
const ELICIT_SERVER = path.join(ROOT, "test/fixtures/mcp/elicit-server.mjs");
const FORM_AND_URL = { elicitation: { form: {}, url: {} } };

/** What the MCP server reported for tool call `id` (its JSON text result). */
function serverSaw(request: RecordedRequest | undefined, id: string): any {
  const content = request?.body.messages.find((m: any) => m.role === "tool" && m.tool_call_id === id)?.content;
  assert.ok(content !== undefined, `a tool result for ${id}`);
  const text = typeof content === "string" ? content : content.map((part: any) => part.text ?? "").join("");
  return JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1));
}

async function session(options: InProcessOptions) {
  const model = scripted();
  const config = scriptedConfig(model.url, { mcp_servers: { ask: { command: process.execPath, args: [ELICIT_SERVER] } } });
  const hermes = await startAgent({ config, ...options });
  await hermes.initialize();
  const { sessionId } = await hermes.newSession(await makeTempDir());
  return { model, hermes, sessionId };
}

const call = (id: string, tool: string) => ({ toolCalls: [{ id, name: `mcp_ask_${tool}`, arguments: {} }] });

test("a form elicitation reaches the editor tied to the tool call; accept (with the form's defaults), decline and cancel go back to the server as given", async () => {
  const answers: acp.CreateElicitationResponse[] = [{ action: "accept", content: { colour: "blue" } }, { action: "decline" }, { action: "cancel" }];
  const { model, hermes, sessionId } = await session({ elicitation: () => answers.shift() ?? { action: "cancel" } });
  try {
    model.enqueue(call("c0", "capabilities"), { text: "ok" });
    await hermes.prompt(sessionId, "what can you do");
    assert.deepEqual(serverSaw(model.requests.at(-1), "c0").elicitation, { form: { applyDefaults: true } }, "form declared, url not (the editor has no url mode)");

    model.enqueue(call("f1", "ask_form"), { text: "ok" });
    assert.equal((await hermes.prompt(sessionId, "pick")).stopReason, "end_turn");
    assert.deepEqual(serverSaw(model.requests.at(-1), "f1"), { action: "accept", content: { colour: "blue", count: 3 } });
    const request = hermes.elicitationRequests[0] as any;
    assert.equal(request.mode, "form");
    assert.equal(request.sessionId, sessionId);
    assert.equal(request.message, "ask: Which colour?");
    assert.deepEqual(request.requestedSchema.required, ["colour"]);
    assert.deepEqual(request.requestedSchema.properties.colour, { type: "string", enum: ["red", "blue"] });
    const card = sessionUpdates(hermes, sessionId).find((u) => u.sessionUpdate === "tool_call" && u.toolCallId === request.toolCallId);
    assert.ok(card, "the elicitation names the MCP tool's card");

    model.enqueue(call("f2", "ask_form"), { text: "ok" });
    await hermes.prompt(sessionId, "pick again");
    assert.deepEqual(serverSaw(model.requests.at(-1), "f2"), { action: "decline" });

    model.enqueue(call("f3", "ask_form"), { text: "ok" });
    await hermes.prompt(sessionId, "and again");
    assert.deepEqual(serverSaw(model.requests.at(-1), "f3"), { action: "cancel" });
    assert.deepEqual(hermes.invalidUpdates, []);
    assertFramesValid(hermes.frames);
  } finally {
    await hermes.close();
  }
});

test("an answer that does not fit the server's form never reaches it as accepted", async () => {
  const { model, hermes, sessionId } = await session({ elicitation: () => ({ action: "accept", content: { colour: "green" } }) });
  try {
    model.enqueue(call("g1", "ask_form"), { text: "ok" });
    await hermes.prompt(sessionId, "pick");
    const saw = serverSaw(model.requests.at(-1), "g1");
    assert.equal(saw.action, "cancel");
    assert.match(saw._meta["io.hermes/declineReason"], /colour.*one of red, blue/);
  } finally {
    await hermes.close();
  }
});

test("URL mode: the editor gets the link, the server's completion comes back as elicitation/complete", async () => {
  const { model, hermes, sessionId } = await session({ elicitation: () => ({ action: "accept" }), clientCapabilities: FORM_AND_URL });
  try {
    model.enqueue(call("c0", "capabilities"), { text: "ok" });
    await hermes.prompt(sessionId, "what can you do");
    assert.deepEqual(serverSaw(model.requests.at(-1), "c0").elicitation, { form: { applyDefaults: true }, url: {} });

    model.enqueue(call("u1", "ask_url"), { text: "signed in" });
    const completed = hermes.waitForFrame((frame) => frame.method === "elicitation/complete");
    assert.equal((await hermes.prompt(sessionId, "sign in")).stopReason, "end_turn");
    assert.deepEqual(serverSaw(model.requests.at(-1), "u1"), { action: "accept" });
    const request = hermes.elicitationRequests[0] as any;
    assert.equal(request.mode, "url");
    assert.equal(request.url, "https://auth.example.test/sign-in?flow=1");
    assert.equal(request.elicitationId, "mcp:ask:flow-1");
    assert.equal(request.sessionId, sessionId);
    assert.deepEqual((await completed).params, { elicitationId: "mcp:ask:flow-1" });
    assertFramesValid(hermes.frames);
  } finally {
    await hermes.close();
  }
});

test("an editor without elicitation: the server sees no capability, and its request is refused without asking anyone", async () => {
  const { model, hermes, sessionId } = await session({});
  try {
    model.enqueue(call("c0", "capabilities"), { text: "ok" });
    await hermes.prompt(sessionId, "what can you do");
    assert.equal(serverSaw(model.requests.at(-1), "c0").elicitation, undefined);

    model.enqueue(call("n1", "ask_form"), { text: "ok" });
    assert.equal((await hermes.prompt(sessionId, "pick")).stopReason, "end_turn");
    assert.match(serverSaw(model.requests.at(-1), "n1").error, /does not support.*elicitation/i);
    assert.equal(hermes.elicitationRequests.length, 0);
  } finally {
    await hermes.close();
  }
});

test("cancelling the turn while the editor shows the server's form withdraws it and ends the turn", async () => {
  let release: (() => void) | undefined;
  const never = () => new Promise<acp.CreateElicitationResponse>((resolve) => (release = () => resolve({ action: "cancel" })));
  const { model, hermes, sessionId } = await session({ elicitation: never });
  try {
    model.enqueue(call("w1", "ask_form"), { text: "unused" });
    const turn = hermes.prompt(sessionId, "pick");
    await hermes.waitForFrame((frame) => frame.method === "elicitation/create");
    await hermes.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    assert.equal((await turn).stopReason, "cancelled");
    // The agent withdrew its request: the SDK's cancel notice for it went out.
    await hermes.waitForFrame((frame) => frame.method === "$/cancel_request" || frame.method === "notifications/cancelled");
  } finally {
    release?.();
    await hermes.close();
  }
});

test("a subagent's MCP call: the server's question is declined with the reason, and the editor is never asked", async () => {
  const { callNumber, isSubagent, startRoutedModel, toolMessages } = await import("../support/delegation");
  const model = await startRoutedModel((request) => {
    if (!isSubagent(request)) {
      return callNumber(request) === 1 ? { toolCalls: [{ id: "d1", name: "delegate_task", arguments: { tasks: [{ goal: "ask the server", toolsets: ["mcp-ask"] }] } }] } : { text: "done" };
    }
    return callNumber(request) === 1 ? call("s1", "ask_form") : { text: "asked" };
  });
  const config = scriptedConfig(model.url, { mcp_servers: { ask: { command: process.execPath, args: [ELICIT_SERVER] } } });
  const hermes = await startAgent({ config, elicitation: () => ({ action: "accept", content: { colour: "red" } }) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(await makeTempDir());
    assert.equal((await hermes.prompt(sessionId, "delegate it")).stopReason, "end_turn");
    const childResults = model.requests.filter(isSubagent).flatMap((request) => toolMessages(request));
    const saw = childResults.find((text) => text.includes("declineReason"));
    assert.ok(saw, `the server's report reached the subagent: ${childResults.join(" | ")}`);
    assert.match(saw, /"action":\s*"decline"/);
    assert.match(saw, /subagent/);
    assert.equal(hermes.elicitationRequests.length, 0, "the editor was not asked");
  } finally {
    await hermes.close();
    await model.close();
  }
});
