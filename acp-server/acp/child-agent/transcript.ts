// An external child's session/update stream, as the parent needs it: its steps and plan on the
// delegate_task card (live), how many tool calls it made, and its final answer (the text it
// wrote after its last tool call, or everything it wrote when it made none).
import type * as acp from "@agentclientprotocol/sdk/unstable";
import type { TodoItem } from "../../tools/context";
import type { StepStatus, TaskProgress } from "../../delegate/progress";

export class ChildTranscript {
  toolCalls = 0;
  /** The child session's cumulative cost in USD, when it reported one (usage_update). */
  costUsd?: number;
  private all = "";
  private sinceLastTool = "";
  private readonly seen = new Set<string>();

  constructor(private readonly progress: TaskProgress) {}

  /** The child's final answer (unbounded). */
  get answer(): string {
    return this.sinceLastTool.trim() ? this.sinceLastTool : this.all;
  }

  update(update: acp.SessionUpdate): void {
    switch (update.sessionUpdate) {
      case "agent_message_chunk":
        if (update.content.type === "text") {
          this.all += update.content.text;
          this.sinceLastTool += update.content.text;
          this.progress.text(update.content.text);
        }
        return;
      case "tool_call":
        if (!this.seen.has(update.toolCallId)) {
          this.seen.add(update.toolCallId);
          this.toolCalls++;
        }
        if (this.sinceLastTool.trim()) this.all += "\n\n";
        this.sinceLastTool = "";
        this.progress.step(update.toolCallId, update.title, stepStatus(update.status));
        return;
      case "tool_call_update":
        if (update.status || update.title) this.progress.stepStatus(update.toolCallId, update.status ? stepStatus(update.status) : undefined, update.title ?? undefined);
        return;
      case "usage_update":
        if (update.cost?.currency === "USD") this.costUsd = update.cost.amount;
        return;
      case "plan":
        this.progress.plan(update.entries.map((entry, index): TodoItem => ({ id: String(index + 1), content: entry.content, status: entry.status })));
        return;
      default:
        return;
    }
  }
}

function stepStatus(status: acp.ToolCallStatus | null | undefined): StepStatus {
  if (status === "in_progress") return "running";
  if (status === "completed" || status === "failed") return status;
  return "pending";
}
