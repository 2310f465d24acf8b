// session/load: a journal turned back into the session/update stream the client saw live
// (the user's prompts, thoughts, answers, each tool call in its final state, plans).
// Tool calls are journaled as they finish but were shown when announced, all of a reply's
// calls at once and in call order; replay restores that order.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import type { UserPart } from "../providers/types";
import type { JournalRecord, ToolCallRecord } from "../sessions/types";
import type { TodoItem } from "../tools/context";
import { planUpdate, thoughtChunk, textChunk, toLocations, toToolCallContent } from "./updates";

interface Batch {
  order: string[];
  calls: ToolCallRecord[];
  plans: TodoItem[][];
}

export function replayUpdates(records: JournalRecord[]): acp.SessionUpdate[] {
  const updates: acp.SessionUpdate[] = [];
  let batch: Batch | undefined;
  const flush = () => {
    if (!batch) return;
    const position = (call: ToolCallRecord) => {
      const at = batch!.order.indexOf(call.requestId ?? call.id);
      return at === -1 ? Number.MAX_SAFE_INTEGER : at;
    };
    updates.push(...[...batch.calls].sort((a, b) => position(a) - position(b)).map(toolCallUpdate));
    updates.push(...batch.plans.map(planUpdate));
    batch = undefined;
  };

  for (const record of records) {
    if (record.t === "message") {
      const message = record.message;
      if (message.role === "tool") continue; // shown through its tool_call record
      flush();
      if (message.role === "user") updates.push(...message.content.map(userChunk));
      if (message.role === "assistant") {
        if (message.reasoning) updates.push(thoughtChunk(message.reasoning));
        if (message.content) updates.push(textChunk(message.content));
        if (message.toolCalls?.length) batch = { order: message.toolCalls.map((call) => call.id), calls: [], plans: [] };
      }
    } else if (record.t === "tool_call") {
      if (batch) batch.calls.push(record.call);
      else updates.push(toolCallUpdate(record.call));
    } else if (record.t === "plan") {
      if (batch) batch.plans.push(record.todos);
      else updates.push(planUpdate(record.todos));
    }
  }
  flush();
  return updates;
}

function toolCallUpdate(call: ToolCallRecord): acp.SessionUpdate {
  return {
    sessionUpdate: "tool_call",
    toolCallId: call.id,
    title: call.title,
    kind: call.kind as acp.ToolKind,
    status: call.status,
    locations: toLocations(call.locations),
    rawInput: call.rawInput,
    content: toToolCallContent(call.content),
    rawOutput: call.rawOutput,
  };
}

function userChunk(part: UserPart): acp.SessionUpdate {
  return part.type === "text"
    ? { sessionUpdate: "user_message_chunk", content: { type: "text", text: part.text } }
    : { sessionUpdate: "user_message_chunk", content: { type: "image", mimeType: part.mimeType, data: part.data } };
}
