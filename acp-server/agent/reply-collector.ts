// Gathers one model reply from the normalized event stream while forwarding the deltas to
// the user as they arrive. Secrets the model writes itself (a key in its reply, a token in
// a command) are redacted here, where the reply is produced, so every observer (the editor,
// a parent's card) and the history sent back to the model only ever see the masked text.
// Deltas go through a StreamRedactor, which holds back a bounded tail that could be the
// start of a secret until the next delta or end() — a key split across chunks is caught.
import type { ChatMessage, FinishReason, ModelEvent, ReplayBlock, TokenUsage, ToolCallRequest } from "../providers/types";
import { randomUUID } from "node:crypto";
import { redactSecrets } from "../util/redact";
import { StreamRedactor } from "../util/stream-redactor";
import type { TurnObserver } from "./turn-io";

export class ReplyCollector {
  text = "";
  reasoning = "";
  readonly calls: ToolCallRequest[] = [];
  readonly replay: ReplayBlock[] = [];
  finish: FinishReason = "stop";
  usage?: TokenUsage;
  /** Names this reply's chunks for the client, live and (journaled in the message) on replay. */
  readonly messageId = randomUUID();
  private readonly textStream = new StreamRedactor();
  private readonly reasoningStream = new StreamRedactor();

  constructor(private readonly observer: TurnObserver) {}

  add(event: ModelEvent): void {
    switch (event.type) {
      case "text_delta": {
        this.text += event.text;
        // A switch of kind ends the other stream's piece (a secret never spans both): what it
        // held back goes out first, so the client sees them in the order the model sent them.
        this.release(this.reasoningStream, (held) => this.observer.reasoningDelta(held, this.messageId));
        const shown = this.textStream.push(event.text);
        if (shown) this.observer.textDelta(shown, this.messageId);
        break;
      }
      case "reasoning_delta": {
        this.reasoning += event.text;
        this.release(this.textStream, (held) => this.observer.textDelta(held, this.messageId));
        const shown = this.reasoningStream.push(event.text);
        if (shown) this.observer.reasoningDelta(shown, this.messageId);
        break;
      }
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

  /** Forgets the tool calls (a reply cut by the output limit); returns how many there were. */
  dropCalls(): number {
    return this.calls.splice(0).length;
  }

  /** The stream is over (finished, failed or cancelled): shows what was held back. Idempotent. */
  end(): void {
    this.release(this.reasoningStream, (held) => this.observer.reasoningDelta(held, this.messageId));
    this.release(this.textStream, (held) => this.observer.textDelta(held, this.messageId));
  }

  private release(stream: StreamRedactor, show: (held: string) => void): void {
    const held = stream.end();
    if (held) show(held);
  }

  /**
   * The assistant message for the history, or undefined when nothing came back. Text and
   * tool-call arguments are redacted (the calls that run keep their real arguments in
   * `calls`), so the model input, the journal and a reloaded session all hold the same
   * masked text. Reasoning stays exact: providers sign it (thinking signatures). A
   * cancelled reply keeps only what the user saw: unfinished tool calls never ran.
   */
  message(options: { cancelled: boolean }): ChatMessage | undefined {
    const calls = options.cancelled ? [] : this.calls;
    if (!this.text && !this.reasoning && calls.length === 0) return undefined;
    this.end();
    return {
      role: "assistant",
      content: redactSecrets(this.text),
      ...(this.reasoning ? { reasoning: this.reasoning } : {}),
      ...(calls.length ? { toolCalls: calls.map((call) => ({ ...call, arguments: redactSecrets(call.arguments) })) } : {}),
      ...(this.replay.length && !options.cancelled ? { replay: this.replay } : {}),
      id: this.messageId,
    };
  }
}
