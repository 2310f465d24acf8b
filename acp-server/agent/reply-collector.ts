// Gathers one model reply from the normalized event stream while forwarding the deltas to
// the user as they arrive.
import type { ChatMessage, FinishReason, ModelEvent, ReplayBlock, TokenUsage, ToolCallRequest } from "../providers/types";
import type { TurnObserver } from "./turn-io";

export class ReplyCollector {
  text = "";
  reasoning = "";
  readonly calls: ToolCallRequest[] = [];
  readonly replay: ReplayBlock[] = [];
  finish: FinishReason = "stop";
  usage?: TokenUsage;

  constructor(private readonly observer: TurnObserver) {}

  add(event: ModelEvent): void {
    switch (event.type) {
      case "text_delta":
        this.text += event.text;
        this.observer.textDelta(event.text);
        break;
      case "reasoning_delta":
        this.reasoning += event.text;
        this.observer.reasoningDelta(event.text);
        break;
      case "tool_call":
        this.calls.push(event.call);
        break;
      case "replay":
        this.replay.push(event.block);
        break;
      case "usage":
        this.usage = event.usage;
        break;
      case "finish":
        this.finish = event.reason;
        break;
    }
  }

  /**
   * The assistant message for the history, or undefined when nothing came back. A
   * cancelled reply keeps only what the user saw: unfinished tool calls never ran.
   */
  message(options: { cancelled: boolean }): ChatMessage | undefined {
    const calls = options.cancelled ? [] : this.calls;
    if (!this.text && !this.reasoning && calls.length === 0) return undefined;
    return {
      role: "assistant",
      content: this.text,
      ...(this.reasoning ? { reasoning: this.reasoning } : {}),
      ...(calls.length ? { toolCalls: calls } : {}),
      ...(this.replay.length && !options.cancelled ? { replay: this.replay } : {}),
    };
  }
}
