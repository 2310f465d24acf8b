import assert from "node:assert/strict";
import { test } from "node:test";
import { zSessionUpdate } from "../../node_modules/@agentclientprotocol/sdk/dist/v1/schema/zod.gen.js";
import * as updates from "../../acp-server/acp/updates";

const view = { id: "c1", requestId: "c1", name: "read_file", title: "read a.ts", kind: "read" as const, locations: [{ path: "/p/a.ts", line: 3 }, { path: "/p/b.ts" }], rawInput: { path: "a.ts" } };

const cases: [string, ReturnType<typeof updates.textChunk>, unknown][] = [
  ["text chunk", updates.textChunk("hi"), { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } }],
  ["thought chunk", updates.thoughtChunk("hm"), { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "hm" } }],
  [
    "tool call start",
    updates.toolCallStarted(view),
    { sessionUpdate: "tool_call", toolCallId: "c1", title: "read a.ts", kind: "read", status: "pending", locations: [{ path: "/p/a.ts", line: 3 }, { path: "/p/b.ts" }], rawInput: { path: "a.ts" } },
  ],
  ["running", updates.toolCallRunning("c1"), { sessionUpdate: "tool_call_update", toolCallId: "c1", status: "in_progress" }],
  [
    "progress with a terminal",
    updates.toolCallProgress("c1", { content: [{ type: "terminal", terminalId: "t1" }] }),
    { sessionUpdate: "tool_call_update", toolCallId: "c1", content: [{ type: "terminal", terminalId: "t1" }] },
  ],
  [
    "finished with a diff of a new file",
    updates.toolCallFinished("c1", { status: "completed", content: [{ type: "diff", path: "/p/n.ts", oldText: null, newText: "x" }], rawOutput: { ok: 1 } }),
    { sessionUpdate: "tool_call_update", toolCallId: "c1", status: "completed", content: [{ type: "diff", path: "/p/n.ts", oldText: null, newText: "x" }], rawOutput: { ok: 1 } },
  ],
  [
    "failed with text",
    updates.toolCallFinished("c1", { status: "failed", content: [{ type: "text", text: "boom" }], rawOutput: { error: "boom" } }),
    { sessionUpdate: "tool_call_update", toolCallId: "c1", status: "failed", content: [{ type: "content", content: { type: "text", text: "boom" } }], rawOutput: { error: "boom" } },
  ],
  [
    "plan maps cancelled to completed and says so",
    updates.planUpdate([
      { id: "1", content: "a", status: "pending" },
      { id: "2", content: "b", status: "in_progress" },
      { id: "3", content: "c", status: "cancelled" },
    ]),
    {
      sessionUpdate: "plan",
      entries: [
        { content: "a", priority: "medium", status: "pending" },
        { content: "b", priority: "medium", status: "in_progress" },
        { content: "c (cancelled)", priority: "medium", status: "completed" },
      ],
    },
  ],
];

for (const [name, actual, expected] of cases) {
  test(`update: ${name}`, () => {
    assert.deepEqual(actual, expected);
    assert.ok(zSessionUpdate.safeParse(actual).success, "valid against the ACP schema");
  });
}
