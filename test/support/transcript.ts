// Folds a session/update stream into what the user ends up seeing: merged text runs and
// each tool call's final state. Live streams and session/load replays of the same session
// must fold to the same transcript (ids and timing aside).
import type * as acp from "@agentclientprotocol/sdk";

export type TranscriptItem =
  | { kind: "user" | "agent" | "thought"; text: string }
  | { kind: "tool"; title: string; toolKind?: string; status?: string; content: unknown }
  | { kind: "plan"; entries: unknown };

export function transcript(updates: acp.SessionUpdate[]): TranscriptItem[] {
  const items: TranscriptItem[] = [];
  const tools = new Map<string, Extract<TranscriptItem, { kind: "tool" }>>();
  const appendText = (kind: "user" | "agent" | "thought", text: string) => {
    const last = items.at(-1);
    if (last && last.kind === kind) last.text += text;
    else items.push({ kind, text });
  };
  for (const update of updates) {
    switch (update.sessionUpdate) {
      case "user_message_chunk":
      case "agent_message_chunk":
      case "agent_thought_chunk": {
        const kind = update.sessionUpdate === "user_message_chunk" ? "user" : update.sessionUpdate === "agent_message_chunk" ? "agent" : "thought";
        if (update.content.type === "text") appendText(kind, update.content.text);
        break;
      }
      case "tool_call": {
        const item = { kind: "tool" as const, title: update.title, toolKind: update.kind, status: update.status, content: update.content ?? [] };
        tools.set(update.toolCallId, item);
        items.push(item);
        break;
      }
      case "tool_call_update": {
        const item = tools.get(update.toolCallId);
        if (!item) break;
        if (update.title) item.title = update.title;
        if (update.status) item.status = update.status;
        if (update.content) item.content = update.content;
        break;
      }
      case "plan":
        items.push({ kind: "plan", entries: update.entries });
        break;
    }
  }
  // Thoughts are shown apart from the answer; compare them trimmed of the spacing around notices.
  return items.map((item) => (item.kind === "thought" ? { ...item, text: item.text.trim() } : item));
}
