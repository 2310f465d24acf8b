// The closed error union (util/agent-error.ts) and its one mapping to JSON-RPC (acp/error-map.ts):
// every category → code, message and data; unknown errors → one generic error, logged with
// context; and, over the real SDK linked in memory, that handlers answer through the mapping.
import assert from "node:assert/strict";
import test from "node:test";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { createAgentApp } from "../../acp-server/acp/agent-app";
import { fromAgentError, requestErrorText, toRequestError, UNEXPECTED_ERROR_MESSAGE, withErrorMapping } from "../../acp-server/acp/error-map";
import { ModelsExhaustedError } from "../../acp-server/agent/model-call";
import { UserRejection } from "../../acp-server/agent/turn-io";
import { GitError } from "../../acp-server/checkpoints/git";
import { RestoreError } from "../../acp-server/checkpoints/restore";
import { UsageError } from "../../acp-server/cli/cli-output";
import { Interrupted } from "../../acp-server/cli/terminal-questions";
import { DuplicateMcpServerError } from "../../acp-server/mcp/server-spec";
import { MemoryError } from "../../acp-server/memory/memory-store";
import { ContextOverflowError, ProviderError } from "../../acp-server/providers/types";
import { SandboxUnavailableError } from "../../acp-server/security/sandbox/command-sandbox";
import { InvalidCursorError, InvalidSessionIdError, SessionExistsError, SessionNotFoundError, SessionStoreError } from "../../acp-server/sessions/errors";
import { SkillFormatError } from "../../acp-server/skills/skill-file";
import { SkillManageError } from "../../acp-server/skills/skill-writer";
import { FileNotFoundError } from "../../acp-server/tools/context";
import { ToolError } from "../../acp-server/tools/registry";
import { RipgrepError } from "../../acp-server/tools/ripgrep";
import { LockBusyError } from "../../acp-server/util/file-lock";
import { AGENT_ERROR_CATEGORIES, AgentError, type AgentErrorCategory, type AnyAgentError, agentErrorText } from "../../acp-server/util/agent-error";
import type { Logger } from "../../acp-server/util/log";

interface Logged {
  level: string;
  message: string;
  fields?: Record<string, unknown>;
}

function recordingLog(): Logger & { lines: Logged[] } {
  const lines: Logged[] = [];
  const keep = (level: string) => (message: string, fields?: Record<string, unknown>) => void lines.push({ level, message, fields });
  return { lines, debug: keep("debug"), info: keep("info"), warn: keep("warn"), error: keep("error") };
}

const wire = (error: acp.RequestError) => ({ code: error.code, message: error.message, data: error.data });

// One row per category: what a thrown AgentError answers over ACP.
const TABLE: Record<AgentErrorCategory, [AnyAgentError, { code: number; message: string; data: unknown }]> = {
  invalid_params: [new AgentError("invalid_params", 'unknown mode "yolo"', { modeId: "yolo" }), { code: -32602, message: 'Invalid params: unknown mode "yolo"', data: { modeId: "yolo" } }],
  invalid_request: [new AgentError("invalid_request", "this session was closed", { sessionId: "s1" }), { code: -32600, message: "Invalid request: this session was closed", data: { sessionId: "s1" } }],
  unknown_session: [new AgentError("unknown_session", "session s1 not found", { sessionId: "s1" }), { code: -32002, message: "Resource not found", data: { sessionId: "s1" } }],
  not_found: [new AgentError("not_found", "not found: /x", { uri: "/x" }), { code: -32002, message: "Resource not found: /x", data: { uri: "/x" } }],
  auth_required: [
    new AgentError("auth_required", "Hermes has no usable model.", { authRequired: true, reason: "no key", methods: ["openai-api-key"] }),
    { code: -32000, message: "Authentication required: Hermes has no usable model.", data: { authRequired: true, reason: "no key", methods: ["openai-api-key"] } },
  ],
  busy: [new AgentError("busy", "Memory is busy", { lock: "MEMORY.md.lock" }), { code: -32603, message: "Internal error: Memory is busy", data: { lock: "MEMORY.md.lock" } }],
  cancelled: [new AgentError("cancelled", "the user cancelled", {}), { code: -32800, message: "Request cancelled: the user cancelled", data: {} }],
  provider: [new AgentError("provider", "openai: HTTP 500", { kind: "server", status: 500 }), { code: -32603, message: "Internal error: Model request failed: openai: HTTP 500", data: { kind: "server", status: 500 } }],
  tool: [new AgentError("tool", "no match for old_string", {}), { code: -32603, message: "Internal error: no match for old_string", data: {} }],
  config: [new AgentError("config", "config.yaml could not be written", {}), { code: -32603, message: "Internal error: config.yaml could not be written", data: {} }],
  limit_exceeded: [new AgentError("limit_exceeded", "over 2 MB", { limitBytes: 2 }), { code: -32603, message: "Internal error: over 2 MB", data: { limitBytes: 2 } }],
  internal: [new AgentError("internal", "the key was stored but the model could not be set", {}), { code: -32603, message: "Internal error: the key was stored but the model could not be set", data: {} }],
};

test("every category of the union maps to its JSON-RPC code, message and data", () => {
  assert.deepEqual(Object.keys(TABLE).sort(), [...AGENT_ERROR_CATEGORIES].sort(), "the table covers the whole union");
  for (const category of AGENT_ERROR_CATEGORIES) {
    const [error, expected] = TABLE[category];
    const log = recordingLog();
    assert.deepEqual(wire(toRequestError(error, { method: "session/prompt" }, log)), expected, category);
    assert.deepEqual(log.lines, [], `${category} is not an unexpected error`);
  }
});

test("the specialised classes are members of the union and answer as their sites did before", () => {
  const server = new ProviderError("openai: HTTP 500 from https://x", { kind: "server", status: 500 });
  assert.deepEqual(wire(fromAgentError(server)), { code: -32603, message: "Internal error: Model request failed: openai: HTTP 500 from https://x", data: { kind: "server", status: 500 } });
  assert.equal(server.kind, "server", "the failure classification stays the provider's `kind`");
  const overflow = new ContextOverflowError("too long", 400);
  assert.equal(overflow.category, "provider");
  assert.deepEqual(fromAgentError(overflow).data, { kind: "context_overflow", status: 400 });
  const exhausted = new ModelsExhaustedError(new ProviderError("key refused", { kind: "auth", status: 401 }), ["first failed", "key refused"]);
  assert.deepEqual(wire(fromAgentError(exhausted)), { code: -32603, message: "Internal error: Model request failed: key refused (after: first failed)", data: { kind: "auth", status: 401 } });
  const duplicate = new DuplicateMcpServerError("twin");
  assert.deepEqual(wire(fromAgentError(duplicate)), {
    code: -32602,
    message: 'Invalid params: Two MCP servers are named "twin" in this request; server names must be unique.',
    data: { mcpServers: "twin" },
  });
});

test("every error class Hermes defines is a member of the union, with its category and the JSON-RPC code it answers", () => {
  const members: [AnyAgentError, AgentErrorCategory, number][] = [
    [new InvalidSessionIdError("../etc"), "invalid_params", -32602],
    [new InvalidCursorError(), "invalid_params", -32602],
    [new SessionExistsError("s1"), "invalid_request", -32600],
    [new SessionNotFoundError("s1"), "unknown_session", -32002],
    [new SessionStoreError("internal", "could not append to the journal of session s1: ENOSPC", { sessionId: "s1" }), "internal", -32603],
    [new ToolError("no match"), "tool", -32603],
    [new FileNotFoundError("/p/x.ts"), "not_found", -32002],
    [new RipgrepError("ripgrep is not installed"), "tool", -32603],
    [new MemoryError("Memory content is empty."), "tool", -32603],
    [new LockBusyError("/h/MEMORY.md.lock"), "busy", -32603],
    [new SkillFormatError("invalid YAML in the frontmatter"), "config", -32603],
    [new SkillManageError('"X" is not a valid skill name'), "tool", -32603],
    [new UserRejection("use tabs", false), "cancelled", -32800],
    [new RestoreError("this session has no checkpoint to undo"), "invalid_request", -32600],
    [new GitError("git add failed (exit 1): x", ["add"], 1, "x"), "internal", -32603],
    [new SandboxUnavailableError("bubblewrap is not installed"), "config", -32603],
    [new UsageError("--lines needs a positive whole number"), "invalid_params", -32602],
    [new Interrupted(), "cancelled", -32800],
    [new ProviderError("HTTP 429", { kind: "rate_limit", status: 429 }), "provider", -32603],
    [new DuplicateMcpServerError("twin"), "invalid_params", -32602],
  ];
  for (const [error, category, code] of members) {
    assert.ok(error instanceof AgentError, error.name);
    assert.equal(error.category, category, error.name);
    const answer = fromAgentError(error);
    assert.equal(answer.code, code, error.name);
    if (category !== "unknown_session" && category !== "not_found") assert.ok(answer.message.endsWith(error.message), `${error.name}: ${answer.message}`);
  }
  // The ids and paths the protocol expects in data.
  assert.deepEqual(fromAgentError(new SessionNotFoundError("s1")).data, { sessionId: "s1" });
  assert.deepEqual(wire(fromAgentError(new FileNotFoundError("/p/x.ts"))), { code: -32002, message: "Resource not found: /p/x.ts", data: { uri: "/p/x.ts" } });
});

test("requestErrorText: what `hermes chat` prints for an answer of the edge", () => {
  const said = (error: AnyAgentError) => requestErrorText(fromAgentError(error));
  assert.equal(said(new AgentError("invalid_params", 'unknown mode "yolo"', {})), 'unknown mode "yolo"');
  assert.equal(said(new AgentError("unknown_session", "session s1 not found", { sessionId: "s1" })), "session s1 not found");
  assert.equal(said(new ProviderError("openai: HTTP 500", { kind: "server", status: 500 })), "the model request failed: openai: HTTP 500");
  assert.equal(said(new AgentError("auth_required", "Hermes has no usable model.", { authRequired: true, reason: "", methods: [] })), "Hermes has no usable model.");
  assert.equal(requestErrorText(new Error("connection closed")), "connection closed");
});

test("an error outside the union is logged with method, session and stack and answers one generic error", () => {
  for (const thrown of [new Error("ENOENT: /home/me/.hermes/secret.json"), new TypeError("x is not a function"), "a string", { message: '{"json":"message"}' }, undefined]) {
    const log = recordingLog();
    const answer = toRequestError(thrown, { method: "session/load", sessionId: "s9" }, log);
    assert.deepEqual(wire(answer), { code: -32603, message: `Internal error: ${UNEXPECTED_ERROR_MESSAGE}`, data: {} });
    assert.equal(log.lines.length, 1);
    const [line] = log.lines;
    assert.equal(line.level, "error");
    assert.equal(line.fields?.method, "session/load");
    assert.equal(line.fields?.sessionId, "s9");
    assert.equal(line.fields?.error, thrown);
    if (thrown instanceof Error) assert.match(String(line.fields?.stack), /error-map\.test\.ts/);
  }
  // A peer's or the SDK's JSON-RPC error is not Hermes's to forward as its own answer.
  const log = recordingLog();
  assert.equal(toRequestError(acp.RequestError.invalidParams({}, "the client's words"), { method: "session/prompt" }, log).message, `Internal error: ${UNEXPECTED_ERROR_MESSAGE}`);
  assert.equal(log.lines.length, 1);
});

test("an abort error after the request's signal fired is a cancelled request, as the SDK answers it", () => {
  const log = recordingLog();
  const controller = new AbortController();
  const abort = Object.assign(new Error("aborted"), { name: "AbortError" });
  controller.abort(acp.RequestError.requestCancelled());
  assert.equal(toRequestError(abort, { method: "session/prompt", signal: controller.signal }, log).code, -32800);
  assert.equal(log.lines.length, 0);
  // The same error without a fired signal is a failure like any other.
  assert.equal(toRequestError(abort, { method: "session/prompt", signal: new AbortController().signal }, log).code, -32603);
  assert.equal(log.lines.length, 1);
});

test("agentErrorText gives the CLI the user-facing message, and labels anything else", () => {
  assert.equal(agentErrorText(new AgentError("invalid_params", "--lines needs a positive whole number", {})), "--lines needs a positive whole number");
  assert.equal(agentErrorText(new ProviderError("openai: could not reach http://x", { kind: "network" })), "openai: could not reach http://x");
  assert.equal(agentErrorText(new Error("boom")), "unexpected error: boom");
});

/** Runs `work` as a client linked in memory to `agentApp` (the real SDK on both sides). */
async function asClient<T>(agentApp: acp.AgentApp, work: (agent: acp.ClientContext) => Promise<T>): Promise<T> {
  return acp.client({ name: "test" }).connectWith(agentApp, async (agent) => {
    await agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    return work(agent);
  });
}

async function requestError(promise: Promise<unknown>): Promise<{ code: number; message: string; data: unknown }> {
  const error = await promise.then(
    () => assert.fail("the request succeeded"),
    (e: unknown) => e as acp.RequestError,
  );
  return { code: error.code, message: error.message, data: error.data };
}

test("handlers registered through withErrorMapping answer mapped errors, never raw ones", async () => {
  const log = recordingLog();
  let notified = false;
  const app = withErrorMapping(acp.agent({ name: "t" }), log)
    .onRequest(acp.methods.agent.initialize, () => ({ protocolVersion: acp.PROTOCOL_VERSION }))
    .onRequest(acp.methods.agent.session.new, () => {
      throw new Error("raw failure in /home/me/project");
    })
    .onRequest(acp.methods.agent.session.load, ({ params }) => {
      throw new AgentError("unknown_session", "gone", { sessionId: params.sessionId });
    })
    .onNotification(acp.methods.agent.session.cancel, () => {
      notified = true;
      throw new Error("raw failure in a notification");
    });
  await asClient(app, async (agent) => {
    assert.deepEqual(await requestError(agent.request(acp.methods.agent.session.new, { cwd: "/tmp", mcpServers: [] })), {
      code: -32603,
      message: `Internal error: ${UNEXPECTED_ERROR_MESSAGE}`,
      data: {},
    });
    assert.deepEqual(await requestError(agent.request(acp.methods.agent.session.load, { sessionId: "s1", cwd: "/tmp", mcpServers: [] })), {
      code: -32002,
      message: "Resource not found",
      data: { sessionId: "s1" },
    });
    await agent.notify(acp.methods.agent.session.cancel, { sessionId: "s2" });
    // A request after the notification is answered after it was handled (one connection, in order).
    await requestError(agent.request(acp.methods.agent.session.load, { sessionId: "s3", cwd: "/tmp", mcpServers: [] }));
  });
  assert.ok(notified);
  const unexpected = log.lines.filter((line) => line.level === "error");
  assert.deepEqual(unexpected.map((line) => [line.fields?.method, line.fields?.sessionId]), [["session/new", undefined], ["session/cancel", "s2"]]);
});

test("the agent app maps its handlers' errors: a runtime that fails to load is one logged generic error", async () => {
  const log = recordingLog();
  const app = createAgentApp({ version: "test", log, loadRuntime: () => Promise.reject(new Error("cannot read /root/.hermes/config.yaml")) });
  await asClient(app, async (agent) => {
    const answer = await requestError(agent.request(acp.methods.agent.session.new, { cwd: "/tmp", mcpServers: [] }));
    assert.deepEqual(answer, { code: -32603, message: `Internal error: ${UNEXPECTED_ERROR_MESSAGE}`, data: {} });
    // An unknown session is the union's unknown_session, with the id the protocol expects.
    assert.deepEqual(await requestError(agent.request(acp.methods.agent.session.setMode, { sessionId: "nope", modeId: "plan" })), {
      code: -32002,
      message: "Resource not found",
      data: { sessionId: "nope" },
    });
  });
  const failure = log.lines.find((line) => line.message === "request failed with an unexpected error");
  assert.equal(failure?.fields?.method, "session/new");
  assert.match(String((failure?.fields?.error as Error).message), /config\.yaml/);
});

test("the child-agent edge (acp/child-agent/child-services.ts) throws union members that map as its answers did", async () => {
  const { ChildServices } = await import("../../acp-server/acp/child-agent/child-services");
  const { LocalFileAccess } = await import("../../acp-server/tools/local-files");
  const { mkdtempSync } = await import("node:fs");
  const os = await import("node:os");
  const root = mkdtempSync(`${os.tmpdir()}/hermes-child-`);
  const services = new ChildServices(root, new LocalFileAccess(), { start: () => Promise.reject(new Error("unused")) });
  const log = recordingLog();
  const answer = async (work: Promise<unknown>) => wire(toRequestError(await work.then(() => assert.fail("served"), (e: unknown) => e), { method: "fs/read_text_file" }, log));
  assert.deepEqual(await answer(services.readTextFile({ sessionId: "c", path: "/etc/hostname" })), {
    code: -32602,
    message: `Invalid params: /etc/hostname is outside this task's folder (${root})`,
    data: { path: "/etc/hostname" },
  });
  assert.deepEqual(await answer(services.readTextFile({ sessionId: "c", path: `${root}/missing.txt` })), { code: -32002, message: `Resource not found: ${root}/missing.txt`, data: { uri: `${root}/missing.txt` } });
  assert.deepEqual(await answer(services.terminalOutput({ sessionId: "c", terminalId: "t9" })), { code: -32002, message: "Resource not found: t9", data: { uri: "t9" } });
  // A disk error keeps its words for the child (a union member), not the generic answer.
  const disk = await answer(services.readTextFile({ sessionId: "c", path: root }));
  assert.equal(disk.code, -32603);
  assert.match(disk.message, /EISDIR/);
  assert.deepEqual(log.lines, []);
});
