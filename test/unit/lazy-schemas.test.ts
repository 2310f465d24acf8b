// The build makes the ACP SDK's zod schemas lazy (scripts/lazy-schemas.mjs): they must validate
// exactly as the SDK's own eager ones. Both versions of the real SDK files parse the same values
// (real messages of every kind Hermes sends and receives, malformed ones, odd probes) and must give
// the same result: same success, same data, same issues.
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { LAZY_SCHEMA_FILES, lazySchemas } from "../../scripts/lazy-schemas.mjs";
import { makeTempDirSync } from "../support/temp-dirs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SCHEMA_DIR = path.join(ROOT, "node_modules/@agentclientprotocol/sdk/dist/v1/unstable/schema");

interface Schema {
  safeParse(value: unknown): { success: boolean; data?: unknown; error?: { issues: unknown[] } };
}
type SchemaModule = Record<string, unknown>;

/** The SDK's modules as shipped (eager) and as the build bundles them (lazy). */
async function loadBoth(): Promise<{ eager: SchemaModule; lazy: SchemaModule; eagerGuards: SchemaModule; lazyGuards: SchemaModule; cleanup: () => void }> {
  const zodFile = path.join(SCHEMA_DIR, "zod.gen.js");
  const guardsFile = path.join(SCHEMA_DIR, "guards.gen.js");
  const dir = makeTempDirSync("hermes-lazy-schemas-");
  const zodUrl = import.meta.resolve("zod/v4");
  const deserializeUrl = pathToFileURL(path.join(SCHEMA_DIR, "../../../core/schema-deserialize.js")).href;
  const lazyZod = lazySchemas(readFileSync(zodFile, "utf8"), zodFile)
    .replace(/from "zod\/v4"/g, `from ${JSON.stringify(zodUrl)}`)
    .replace(/from "\.\.\/\.\.\/\.\.\/core\/schema-deserialize\.js"/g, `from ${JSON.stringify(deserializeUrl)}`);
  writeFileSync(path.join(dir, "zod.gen.mjs"), lazyZod);
  const lazyGuards = lazySchemas(readFileSync(guardsFile, "utf8"), guardsFile)
    .replace(/from "zod\/v4"/g, `from ${JSON.stringify(zodUrl)}`)
    .replace(/from "\.\/zod\.gen\.js"/g, `from "./zod.gen.mjs"`);
  writeFileSync(path.join(dir, "guards.gen.mjs"), lazyGuards);
  return {
    eager: (await import(pathToFileURL(zodFile).href)) as SchemaModule,
    lazy: (await import(pathToFileURL(path.join(dir, "zod.gen.mjs")).href)) as SchemaModule,
    eagerGuards: (await import(pathToFileURL(guardsFile).href)) as SchemaModule,
    lazyGuards: (await import(pathToFileURL(path.join(dir, "guards.gen.mjs")).href)) as SchemaModule,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

function sameResult(eager: Schema, lazy: Schema, value: unknown, label: string): void {
  const a = eager.safeParse(value);
  const b = lazy.safeParse(value);
  assert.equal(b.success, a.success, `${label}: success`);
  if (a.success) assert.deepStrictEqual(b.data, a.data, `${label}: data`);
  else assert.deepStrictEqual(b.error?.issues, a.error?.issues, `${label}: issues`);
}

const text = { type: "text", text: "hello" };
const meta = { _meta: { "hermes/x": 1 } };
/** Real messages, by the schema that checks them (what Hermes receives, and what it sends). */
const CORPUS: Record<string, unknown[]> = {
  zInitializeRequest: [
    { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true }, clientInfo: { name: "zed", version: "1" } },
    { protocolVersion: 1 },
    { protocolVersion: "1" },
    { protocolVersion: 1, clientCapabilities: { fs: true } },
    { protocolVersion: 1, clientCapabilities: { elicitation: { form: {} }, auth: { terminal: true } }, _meta: 5 },
  ],
  zNewSessionRequest: [
    { cwd: "/work", mcpServers: [] },
    { cwd: "/work", mcpServers: null, additionalDirectories: null },
    { cwd: "/work", mcpServers: [{ name: "fs", command: "npx", args: ["-y", "server"], env: [{ name: "A", value: "b" }] }] },
    { cwd: "/work", mcpServers: [{ type: "http", name: "h", url: "http://x", headers: [{ name: "a", value: "b" }] }, { type: "sse", name: "s", url: "http://y", headers: [] }] },
    { cwd: "/work", mcpServers: [{ type: "custom-transport", name: "c", extra: 1 }] },
    { cwd: "/work", mcpServers: [{ name: "bad" }] },
    { cwd: 5, mcpServers: [] },
    { cwd: "/work", mcpServers: [], additionalDirectories: ["/a", "/b"], _meta: { x: 1 } },
    { cwd: "/work", mcpServers: [], _meta: "not an object" },
  ],
  zLoadSessionRequest: [{ sessionId: "s1", cwd: "/w", mcpServers: [] }, { sessionId: 1, cwd: "/w", mcpServers: [] }, { sessionId: "s1", cwd: "/w", mcpServers: [], _meta: { "hermes/takeOver": true } }],
  zResumeSessionRequest: [{ sessionId: "s1", cwd: "/w" }, { sessionId: "s1", cwd: "/w", mcpServers: null }],
  zForkSessionRequest: [{ sessionId: "s1", cwd: "/w", mcpServers: [], _meta: { "hermes/turns": 2 } }, { sessionId: "s1" }],
  zListSessionsRequest: [{}, { cwd: "/w", cursor: "c" }, { cursor: 5 }],
  zSetSessionModeRequest: [{ sessionId: "s", modeId: "plan" }, { sessionId: "s" }],
  zSetSessionConfigOptionRequest: [
    { sessionId: "s", configId: "model", value: "m1" },
    { sessionId: "s", configId: "flag", type: "boolean", value: true },
    { sessionId: "s", configId: "flag", type: "boolean", value: "yes" },
    { sessionId: "s", value: "m1" },
  ],
  zPromptRequest: [
    { sessionId: "s", prompt: [text] },
    { sessionId: "s", prompt: [text, { type: "image", data: "aGk=", mimeType: "image/png" }, { type: "resource_link", uri: "file:///a.ts", name: "a.ts" }] },
    { sessionId: "s", prompt: [{ type: "resource", resource: { uri: "file:///a.ts", text: "x", mimeType: "text/plain" } }, { type: "audio", data: "aGk=", mimeType: "audio/wav" }] },
    { sessionId: "s", prompt: [{ type: "resource", resource: { uri: "file:///b.bin", blob: "aGk=" } }] },
    { sessionId: "s", prompt: [{ type: "text" }] },
    { sessionId: "s", prompt: [{ type: "mystery", payload: 1 }] },
    { sessionId: "s", prompt: "hello" },
    { sessionId: "s", prompt: [{ ...text, annotations: { audience: ["user"], priority: 0.5 } }], messageId: "m1" },
  ],
  zCancelNotification: [{ sessionId: "s" }, {}],
  zAuthenticateRequest: [{ methodId: "openrouter" }, { methodId: 3 }],
  zSessionNotification: [
    { sessionId: "s", update: { sessionUpdate: "agent_message_chunk", content: text } },
    { sessionId: "s", update: { sessionUpdate: "user_message_chunk", content: text, messageId: "m" } },
    { sessionId: "s", update: { sessionUpdate: "agent_thought_chunk", content: text, ...meta } },
    { sessionId: "s", update: { sessionUpdate: "tool_call", toolCallId: "t1", title: "Read a.ts", kind: "read", status: "pending", locations: [{ path: "/a.ts", line: 3 }], rawInput: { path: "a.ts" } } },
    {
      sessionId: "s",
      update: {
        sessionUpdate: "tool_call_update",
        toolCallId: "t1",
        status: "completed",
        content: [{ type: "diff", path: "/a.ts", oldText: "a", newText: "b" }, { type: "content", content: text }, { type: "terminal", terminalId: "term1" }],
        rawOutput: { ok: true },
      },
    },
    { sessionId: "s", update: { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "exploded" } },
    { sessionId: "s", update: { sessionUpdate: "plan", entries: [{ content: "step", priority: "high", status: "in_progress" }] } },
    { sessionId: "s", update: { sessionUpdate: "available_commands_update", availableCommands: [{ name: "help", description: "Help", input: { hint: "topic" } }, { name: "x", description: "y", input: null }] } },
    { sessionId: "s", update: { sessionUpdate: "current_mode_update", currentModeId: "plan" } },
    {
      sessionId: "s",
      update: {
        sessionUpdate: "config_option_update",
        configOptions: [
          { type: "select", id: "model", name: "Model", category: "model", currentValue: "a", options: [{ value: "a", name: "A", description: "first" }, { value: "b", name: "B" }] },
          { type: "select", id: "mode", name: "Mode", currentValue: "g", options: [{ group: "g1", name: "Group", options: [{ value: "g", name: "G" }] }] },
          { type: "boolean", id: "flag", name: "Flag", currentValue: true },
        ],
      },
    },
    { sessionId: "s", update: { sessionUpdate: "usage_update", used: 1200, size: 200000, cost: { amount: 0.01, currency: "USD" } } },
    { sessionId: "s", update: { sessionUpdate: "session_info_update", title: "Fix the bug", updatedAt: "2026-01-01T00:00:00Z" } },
    { sessionId: "s", update: { sessionUpdate: "a_future_update", anything: [1, 2] } },
    { sessionId: "s", update: { sessionUpdate: "agent_message_chunk" } },
    { sessionId: "s", update: { sessionUpdate: "tool_call", toolCallId: "t1", title: "x", kind: "not-a-kind", status: "pending", _meta: 1 } },
  ],
  zRequestPermissionRequest: [
    {
      sessionId: "s",
      toolCall: { toolCallId: "t1", title: "Run npm test", kind: "execute", content: [{ type: "content", content: text }] },
      options: [{ optionId: "allow", name: "Allow", kind: "allow_once" }, { optionId: "always", name: "Always", kind: "allow_always" }, { optionId: "no", name: "Reject", kind: "reject_once" }],
    },
    { sessionId: "s", toolCall: { toolCallId: "t1" }, options: [{ optionId: "x", name: "X", kind: "maybe" }] },
  ],
  zRequestPermissionResponse: [{ outcome: { outcome: "selected", optionId: "allow" } }, { outcome: { outcome: "cancelled" } }, { outcome: { outcome: "selected" } }, { outcome: "cancelled" }],
  zCreateTerminalRequest: [{ sessionId: "s", command: "npm", args: ["test"], cwd: "/w", env: [{ name: "A", value: "1" }], outputByteLimit: 1000 }, { sessionId: "s" }],
  zCreateTerminalResponse: [{ terminalId: "t" }, {}],
  zTerminalOutputResponse: [{ output: "ok", truncated: false, exitStatus: { exitCode: 0, signal: null } }, { output: "ok", truncated: "no" }],
  zWaitForTerminalExitResponse: [{ exitCode: 1, signal: null }, { exitCode: -1 }],
  zReadTextFileResponse: [{ content: "text" }, { content: 1 }],
  zCreateElicitationRequest: [
    { sessionId: "s", mode: "form", message: "Pick", requestedSchema: { type: "object", properties: { choice: { type: "string", enum: ["a", "b"] } }, required: ["choice"] } },
    { sessionId: "s", mode: "url", message: "Open", url: "https://x", elicitationId: "e" },
    { sessionId: "s", mode: "form", message: 5 },
    { sessionId: "s", mode: "custom-mode", message: "m", extra: { a: 1 } },
  ],
  zCreateElicitationResponse: [{ action: "accept", content: { choice: "a" } }, { action: "decline" }, { action: "cancel" }, { action: "other", payload: 1 }, { action: 1 }],
};

/** Odd values every schema is probed with (mostly failures: the issues must match too). */
const PROBES: unknown[] = [undefined, null, {}, [], "text", 0, -1, 1.5, 2 ** 40, true, { sessionId: "s" }, text, { _meta: 5 }, { type: "unknown-kind" }, [text]];

test("lazy SDK schemas validate real messages exactly as the SDK's eager ones", async () => {
  const { eager, lazy, cleanup } = await loadBoth();
  try {
    for (const [name, values] of Object.entries(CORPUS)) {
      assert.ok(eager[name] && lazy[name], `${name} is exported`);
      values.forEach((value, i) => sameResult(eager[name] as Schema, lazy[name] as Schema, value, `${name}[${i}]`));
    }
  } finally {
    cleanup();
  }
});

test("every lazy SDK schema answers odd values as the eager one does", async () => {
  const { eager, lazy, cleanup } = await loadBoth();
  try {
    const names = Object.keys(eager).filter((name) => /^z[A-Z]/.test(name));
    assert.ok(names.length > 200, `the SDK exports its schemas (found ${names.length})`);
    for (const name of names) {
      for (const [i, value] of PROBES.entries()) sameResult(eager[name] as Schema, lazy[name] as Schema, value, `${name} probe ${i}`);
    }
  } finally {
    cleanup();
  }
});

test("the SDK's type guards answer alike with lazy schemas", async () => {
  const { eagerGuards, lazyGuards, cleanup } = await loadBoth();
  try {
    const values = [...(CORPUS.zCreateElicitationRequest ?? []), ...(CORPUS.zCreateElicitationResponse ?? []), ...PROBES, { type: "string" }, { type: "array", items: { type: "string", enum: ["a"] } }, { state: "idle", stopReason: "end_turn" }, { state: "running" }];
    let checked = 0;
    for (const [group, guards] of Object.entries(eagerGuards)) {
      for (const [guard, check] of Object.entries(guards as Record<string, unknown>)) {
        if (typeof check !== "function") continue;
        const lazyCheck = (lazyGuards[group] as Record<string, (value: unknown) => boolean>)[guard]!;
        for (const value of values) assert.equal(lazyCheck(value), (check as (value: unknown) => boolean)(value), `${group}.${guard}(${JSON.stringify(value)})`);
        checked++;
      }
    }
    assert.ok(checked > 5, "the guards were found");
  } finally {
    cleanup();
  }
});

test("the build's filter matches the SDK files it must transform, and a file without zod schemas fails the build", () => {
  assert.match(path.join(SCHEMA_DIR, "zod.gen.js"), LAZY_SCHEMA_FILES);
  assert.match(path.join(SCHEMA_DIR, "guards.gen.js"), LAZY_SCHEMA_FILES);
  assert.doesNotMatch(path.join(SCHEMA_DIR, "index.js"), LAZY_SCHEMA_FILES);
  assert.throws(() => lazySchemas('import * as z from "zod/v4";\nexport const answer = 42;\n'), /no top-level zod schema/);
  assert.throws(() => lazySchemas("export const zThing = make();\n"), /import \* as z/);
  assert.equal(lazySchemas('import * as z from "zod/v4";\nexport const zA = z.string();\nexport const zB = zA;\n'), 'import * as z from "zod/v4";\nexport const zA = /* @__PURE__ */ z.lazy(() => (z.string()));\nexport const zB = zA;\n');
});
