// Host → panel messages through their zod schemas (common/panel-state/schemas.ts): every kind of
// action and a snapshot of the state they build pass unchanged; malformed ones are refused with
// a reason (the panel logs and drops them); an update kind from a newer protocol passes.
import type * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { test } from "node:test";
import { hostToPanel, parseMessage } from "../../common/panel-protocol";
import type { ChatAction } from "../../common/panel-state/actions";
import { initialState, reduce } from "../../common/panel-state/reducer";

const text = (t: string): acp.ContentBlock => ({ type: "text", text: t });
const update = (u: acp.SessionUpdate): ChatAction => ({ type: "update", update: u });
const modes: acp.SessionModeState = { currentModeId: "default", availableModes: [{ id: "default", name: "Default" }, { id: "plan", name: "Plan" }] };
const configOptions = [{ id: "mode", name: "Mode", type: "select", currentValue: "default", options: [{ value: "default", name: "Default" }] }] as acp.SessionConfigOption[];

/** One of every action kind (and every update kind the panel shows), as the host sends them. */
const everyAction: ChatAction[] = [
  { type: "connection", status: "ready", agent: { name: "hermes", version: "1.0.0" } },
  { type: "sessionOpened", sessionId: "s1", title: "A chat", loading: true, modes, configOptions },
  update({ sessionUpdate: "user_message_chunk", content: text("hello"), messageId: "m1" }),
  update({ sessionUpdate: "agent_thought_chunk", content: text("thinking") }),
  update({ sessionUpdate: "agent_message_chunk", content: text("Hi!"), messageId: "a1" }),
  { type: "sessionLoaded", modes: null, configOptions: null },
  { type: "userPrompt", text: "fix it", attachments: [{ kind: "file", name: "a.ts" }], isCommand: false },
  { type: "turnStarted", at: 1_700_000_000_000 },
  update({ sessionUpdate: "tool_call", toolCallId: "t1", title: "Edit a.ts", kind: "edit", status: "pending", locations: [{ path: "/w/a.ts", line: 3 }], rawInput: { path: "a.ts" } }),
  update({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed", content: [{ type: "diff", path: "/w/a.ts", oldText: "a", newText: "b" }, { type: "terminal", terminalId: "term-1" }] }),
  update({ sessionUpdate: "plan", entries: [{ content: "step", status: "in_progress", priority: "medium" }] }),
  update({ sessionUpdate: "available_commands_update", availableCommands: [{ name: "help", description: "Show help" }] }),
  update({ sessionUpdate: "current_mode_update", currentModeId: "plan" }),
  update({ sessionUpdate: "config_option_update", configOptions }),
  update({ sessionUpdate: "session_info_update", title: "Renamed" }),
  update({ sessionUpdate: "usage_update", used: 1200, size: 200_000, cost: { amount: 0.01, currency: "USD" } }),
  update({ sessionUpdate: "compaction_update", compactionId: "c1", status: "completed", summary: [text("summary")] } as unknown as acp.SessionUpdate),
  { type: "notice", severity: "warning", text: "careful" },
  { type: "permissionRequested", id: "p1", toolCall: { toolCallId: "t2", title: "Run ls", content: [{ type: "content", content: text("why") }] }, options: [{ optionId: "allow", name: "Allow", kind: "allow_once" }] },
  { type: "permissionResolved", id: "p1", outcome: "allow", optionKind: "allow_once" },
  { type: "reviewRequested", review: { id: "r1", path: "/w/a.ts", displayPath: "a.ts", isNewFile: false, hunks: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: [{ op: "-", text: "a" }, { op: "+", text: "b" }], decision: "pending" }] } },
  { type: "reviewHunkDecided", id: "r1", hunk: 0, decision: "accepted" },
  { type: "reviewResolved", id: "r1", status: "applied" },
  { type: "queueChanged", queue: [{ id: "q1", text: "next", attachments: [{ kind: "selection", id: "at1", uri: "file:///w/a.ts", name: "a.ts", text: "x", startLine: 1, endLine: 2 }] }] },
  { type: "attachmentAdded", attachment: { kind: "image", id: "img1", name: "shot.png", mimeType: "image/png", data: "AAAA" } },
  { type: "attachmentRemoved", id: "img1" },
  { type: "attachmentsCleared" },
  { type: "terminalOutput", terminalId: "term-1", text: "out\n", truncated: true },
  { type: "terminalExited", terminalId: "term-1", exitCode: null, signal: "SIGKILL" },
  { type: "configOptions", configOptions },
  { type: "history", open: true, loading: false, sessions: [{ sessionId: "s1", title: "A chat", cwd: "/w", updatedAt: "2026-01-01T00:00:00Z" }] },
  { type: "turnEnded", stopReason: "end_turn" },
  { type: "sessionClosed" },
];

test("every action kind the host sends passes unchanged, and so does a snapshot of what they build", () => {
  const kinds = new Set(everyAction.map((action) => action.type));
  assert.equal(kinds.size, 22, "one of each ChatAction kind");
  const parsed = parseMessage(hostToPanel, { type: "actions", actions: everyAction });
  assert.ok(parsed.ok, parsed.ok ? "" : parsed.error);
  assert.deepEqual(parsed.message, { type: "actions", actions: everyAction });

  const state = everyAction.slice(0, -1).reduce(reduce, initialState()); // before sessionClosed: a full transcript
  assert.ok(state.items.length >= 6);
  const snapshot = parseMessage(hostToPanel, JSON.parse(JSON.stringify({ type: "snapshot", state })));
  assert.ok(snapshot.ok, snapshot.ok ? "" : snapshot.error);
  assert.deepEqual(snapshot.message, JSON.parse(JSON.stringify({ type: "snapshot", state })));
});

test("malformed host messages are refused with a reason", () => {
  const state = initialState();
  const bad: [string, unknown][] = [
    ["no type", { actions: [] }],
    ["an unknown action", { type: "actions", actions: [{ type: "explode" }] }],
    ["a field of the wrong type", { type: "actions", actions: [{ type: "turnStarted", at: "noon" }] }],
    ["a missing field", { type: "actions", actions: [{ type: "terminalOutput", terminalId: "t" }] }],
    ["a bad enum", { type: "actions", actions: [{ type: "notice", severity: "fatal", text: "x" }] }],
    ["a bad hunk index", { type: "actions", actions: [{ type: "reviewHunkDecided", id: "r", hunk: -1, decision: "accepted" }] }],
    ["a known update with a bad field", { type: "actions", actions: [{ type: "update", update: { sessionUpdate: "agent_message_chunk", content: "plain string" } }] }],
    ["a tool call without its id", { type: "actions", actions: [{ type: "update", update: { sessionUpdate: "tool_call", title: "x" } }] }],
    ["usage that is not a number", { type: "actions", actions: [{ type: "update", update: { sessionUpdate: "usage_update", used: "lots", size: 1 } }] }],
    ["an update that is not an object", { type: "actions", actions: [{ type: "update", update: null }] }],
    ["a snapshot whose items are not a list", { type: "snapshot", state: { ...state, items: "x" } }],
    ["a snapshot item of an unknown kind", { type: "snapshot", state: { ...state, items: [{ kind: "banner", id: "b" }] } }],
    ["a snapshot without its index", { type: "snapshot", state: { ...state, index: undefined } }],
    ["a snapshot with a bad connection status", { type: "snapshot", state: { ...state, connection: { status: "exploded" } } }],
  ];
  for (const [why, message] of bad) {
    const result = parseMessage(hostToPanel, message);
    assert.equal(result.ok, false, why);
    if (!result.ok) assert.ok(result.error.length > 0, why);
  }
});

test("an update kind from a newer protocol passes (the reducer ignores it); a known kind never slips through as unknown", () => {
  const future = { type: "actions", actions: [{ type: "update", update: { sessionUpdate: "hologram_update", anything: [1, 2] } }] };
  const parsed = parseMessage(hostToPanel, future);
  assert.ok(parsed.ok, parsed.ok ? "" : parsed.error);
  assert.deepEqual(parsed.message, future);
  const state = initialState();
  assert.deepEqual((parsed.message as { actions: ChatAction[] }).actions.reduce(reduce, state), state, "nothing changes");
  assert.equal(parseMessage(hostToPanel, { type: "actions", actions: [{ type: "update", update: { sessionUpdate: "plan", entries: "none" } }] }).ok, false);
});
