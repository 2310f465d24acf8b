// A tool called from inside execute_code's program arrives as its own tool call naming its parent
// (`_meta["hermes/parentToolCallId"]`): the panel keeps the link, so the card shows as a step of
// the execute_code card, and the state passes the snapshot schema (a rebuilt webview gets it whole).
import type * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { test } from "node:test";
import type { ChatAction } from "../../common/panel-state/actions";
import { initialState, reduce } from "../../common/panel-state/reducer";
import { chatStateSchema } from "../../common/panel-state/schemas";

test("a nested step keeps its parent's id; a plain tool call has none", () => {
  const updates = [
    { sessionUpdate: "tool_call", toolCallId: "p", title: "Run python program (3 lines)", kind: "execute", status: "pending" },
    { sessionUpdate: "tool_call", toolCallId: "p.1", title: "read a.txt", kind: "read", status: "pending", _meta: { "hermes/parentToolCallId": "p" } },
    { sessionUpdate: "tool_call_update", toolCallId: "p.1", status: "completed" },
  ] as acp.SessionUpdate[];
  const actions: ChatAction[] = [{ type: "sessionOpened", sessionId: "s1", loading: false }, ...updates.map((update): ChatAction => ({ type: "update", update }))];
  const state = actions.reduce(reduce, initialState());
  const tools = state.items.filter((item) => item.kind === "tool");
  assert.deepEqual(
    tools.map((item) => (item.kind === "tool" ? [item.id, item.parentId, item.status] : [])),
    [
      ["p", undefined, "pending"],
      ["p.1", "p", "completed"],
    ],
  );
  assert.ok(chatStateSchema.safeParse(state).success);
});
