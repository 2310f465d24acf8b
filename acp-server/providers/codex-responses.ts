// ModelProvider for the OpenAI Responses API (OpenAI's reasoning and Codex models), built on
// the official `openai` SDK. Stateless: `store: false`, and reasoning is carried between calls
// as encrypted reasoning items the loop stores as replay blocks and sends back verbatim.
// Type-only: the SDK is heavy, so it is loaded on the first call, not at process start.
import type OpenAI from "openai";
import type { ResponseCreateParamsStreaming, ResponseInput, ResponseOutputItem } from "openai/resources/responses/responses";
import { incompleteReason, mapResponsesUsage, reasoningReplay, streamFailure, toResponsesPrompt, toResponsesTools } from "./codex-responses-mapping";
import { generatedCallId, loadOpenAIClient, type OpenAIModule } from "./openai-client";
import { SdkProvider, type SdkProviderBase } from "./sdk-provider";
import type { StreamGuard } from "./stream-guard";
import { ProviderError } from "./types";
import type { FinishReason, ModelEvent, ModelRequest, TokenUsage, ToolCallRequest } from "./types";


export type ReasoningEffort = "minimal" | "low" | "medium" | "high";

export interface CodexResponsesProviderOptions extends SdkProviderBase {
  /** Default `max_output_tokens` when the request sets no maxTokens. */
  maxOutputTokens?: number;
  /** Sent (with summary "auto") only when set; otherwise the model's default applies. */
  reasoningEffort?: ReasoningEffort;
}

/** Function calls by output index, so parallel calls come out in the model's order. */
class FunctionCalls {
  private readonly calls = new Map<number, { callId: string; name: string; arguments: string; done: boolean; incomplete: boolean }>();

  added(index: number, callId: string, name: string): void {
    this.calls.set(index, { callId, name, arguments: "", done: false, incomplete: false });
  }

  delta(index: number, text: string): void {
    const call = this.calls.get(index);
    if (call) call.arguments += text;
  }

  /** The done item carries the whole call: it wins over the streamed pieces. */
  done(index: number, item: { call_id?: string; name?: string; arguments?: string; status?: string }): void {
    const call = this.calls.get(index) ?? { callId: "", name: "", arguments: "", done: false, incomplete: false };
    call.callId = item.call_id || call.callId;
    call.name = item.name || call.name;
    if (typeof item.arguments === "string" && item.arguments !== "") call.arguments = item.arguments;
    call.done = true;
    call.incomplete = item.status === "incomplete";
    this.calls.set(index, call);
  }

  /** After response.completed every call counts; after a cut-off only the ones that finished whole. */
  finish(onlyWhole: boolean): ToolCallRequest[] {
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .filter(([, call]) => !onlyWhole || (call.done && !call.incomplete))
      .map(([, call]) => ({
        id: call.callId || generatedCallId(),
        name: call.name,
        arguments: call.arguments.trim() === "" ? "{}" : call.arguments,
      }));
  }
}

export class CodexResponsesProvider extends SdkProvider<OpenAIModule, OpenAI> {
  constructor(private readonly options: CodexResponsesProviderOptions) {
    super(options);
  }

  protected async *events(client: OpenAI, request: ModelRequest, guard: StreamGuard): AsyncGenerator<ModelEvent> {
    const stream = await guard.race(client.responses.create(this.requestBody(request), { signal: guard.signal }));
    guard.arm();
    const calls = new FunctionCalls();
    let finish: FinishReason | undefined;
    let usage: TokenUsage | undefined;
    let reasoned = false;
    let refused = false;
    for await (const event of stream) {
      guard.pause();
      switch (event.type) {
        case "response.output_text.delta":
          if (event.delta) yield { type: "text_delta", text: event.delta };
          break;
        case "response.refusal.delta":
          // The refusal content part is the model's answer: shown as its message, turn ends `refusal`.
          refused = true;
          if (event.delta) yield { type: "text_delta", text: event.delta };
          break;
        case "response.reasoning_summary_part.added":
          // Summary parts (also of later reasoning items) are separate paragraphs; without a
          // break they run together.
          if (reasoned) yield { type: "reasoning_delta", text: "\n\n" };
          break;
        case "response.reasoning_summary_text.delta":
        case "response.reasoning_text.delta":
          if (event.delta) yield { type: "reasoning_delta", text: event.delta };
          reasoned ||= event.delta !== "";
          break;
        case "response.output_item.added":
          if (event.item.type === "function_call") calls.added(event.output_index, event.item.call_id, event.item.name);
          break;
        case "response.function_call_arguments.delta":
          calls.delta(event.output_index, event.delta);
          break;
        case "response.output_item.done":
          yield* this.itemDone(event.output_index, event.item, calls);
          break;
        case "response.completed":
        case "response.incomplete":
          if (event.response.usage) usage = mapResponsesUsage(event.response.usage);
          finish = event.type === "response.completed" ? "stop" : incompleteReason(event.response.incomplete_details?.reason);
          break;
        case "response.failed":
          throw streamFailure(this.provider, event.response.error?.code, event.response.error?.message);
        case "error":
          throw streamFailure(this.provider, event.code, event.message);
      }
      guard.arm();
    }
    guard.check();
    // A stream cut off before response.completed / .incomplete is not a finished answer.
    if (finish === undefined) {
      throw new ProviderError(`${this.provider}: the stream from ${this.options.baseURL} ended before the response completed`, { kind: "malformed" });
    }
    // Tool calls go out only once the response is known to be whole, so a failed stream
    // never leaves a call (without its output) in the history.
    const whole = calls.finish(finish !== "stop");
    for (const call of whole) yield { type: "tool_call", call };
    if (usage) yield { type: "usage", usage };
    if (refused && finish === "stop") finish = "content_filter";
    yield { type: "finish", reason: finish === "stop" && whole.length > 0 ? "tool_calls" : finish };
  }

  private *itemDone(index: number, item: ResponseOutputItem, calls: FunctionCalls): Iterable<ModelEvent> {
    if (item.type === "function_call") calls.done(index, item);
    else if (item.type === "reasoning") yield { type: "replay", block: reasoningReplay(item) };
  }

  protected loadSdk(): Promise<{ module: OpenAIModule; client: OpenAI }> {
    return loadOpenAIClient(this.options);
  }

  private requestBody(request: ModelRequest): ResponseCreateParamsStreaming {
    const { instructions, input } = toResponsesPrompt(request.messages);
    const body: ResponseCreateParamsStreaming = {
      model: this.model,
      // Our assistant-message form is valid on the wire but narrower than the SDK's output type.
      input: input as ResponseInput,
      stream: true,
      // Stateless: nothing kept server-side, so reasoning must come back encrypted to be replayed.
      store: false,
      include: ["reasoning.encrypted_content"],
    };
    if (instructions !== undefined) body.instructions = instructions;
    // An empty `tools` array (or parallel_tool_calls without tools) is pointless at best.
    if (request.tools.length > 0) {
      body.tools = toResponsesTools(request.tools);
      body.parallel_tool_calls = true;
    }
    const maxTokens = request.maxTokens ?? this.options.maxOutputTokens;
    if (maxTokens !== undefined) body.max_output_tokens = maxTokens;
    if (this.options.reasoningEffort) body.reasoning = { effort: this.options.reasoningEffort, summary: "auto" };
    if (request.temperature !== undefined) body.temperature = request.temperature;
    return body;
  }

}
