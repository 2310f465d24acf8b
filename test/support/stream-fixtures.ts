// Hand-written provider streams for the quirks issue 30 names, in each API's real wire shape
// (event names, field names, the order of frames), modelled on what the APIs send:
// - a reply cut by the output limit while it writes a tool call (all three APIs);
// - a refusal (Chat Completions `delta.refusal`, the Responses refusal part, Anthropic
//   stop_reason "refusal").
// Played byte for byte by scripted-wire.ts to the real SDKs.

/** `event:` + `data:` framing (Anthropic Messages and the Responses API). */
function named(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/** `data:` only framing (Chat Completions), closed by `data: [DONE]`. */
function bare(data: unknown): string {
  return `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}

// ---- Anthropic Messages ----

function anthropicStart(id: string): string {
  return named("message_start", {
    message: { id, type: "message", role: "assistant", model: "claude-fixture", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 812, output_tokens: 3 } },
  });
}

/** Some text, then a tool_use block whose JSON stops mid-string when max_tokens is reached. */
export function anthropicCutToolUse(toolName: string): string[] {
  return [
    anthropicStart("msg_fixture_cut"),
    named("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
    named("ping", {}),
    named("content_block_delta", { index: 0, delta: { type: "text_delta", text: "I'll write the whole module in one go." } }),
    named("content_block_stop", { index: 0 }),
    named("content_block_start", { index: 1, content_block: { type: "tool_use", id: "toolu_fixture_cut", name: toolName, input: {} } }),
    named("content_block_delta", { index: 1, delta: { type: "input_json_delta", partial_json: "" } }),
    named("content_block_delta", { index: 1, delta: { type: "input_json_delta", partial_json: '{"path": "big.ts", "con' } }),
    named("content_block_delta", { index: 1, delta: { type: "input_json_delta", partial_json: 'tent": "export const table = [\\n  1, 2, 3,' } }),
    named("content_block_stop", { index: 1 }),
    named("message_delta", { delta: { stop_reason: "max_tokens", stop_sequence: null }, usage: { output_tokens: 64 } }),
    named("message_stop", {}),
  ];
}

/** A refusal: the model's words in a text block, then stop_reason "refusal". */
export function anthropicRefusal(words: string): string[] {
  return [
    anthropicStart("msg_fixture_refusal"),
    named("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
    named("content_block_delta", { index: 0, delta: { type: "text_delta", text: words } }),
    named("content_block_stop", { index: 0 }),
    named("message_delta", { delta: { stop_reason: "refusal", stop_sequence: null }, usage: { output_tokens: 12 } }),
    named("message_stop", {}),
  ];
}

/** A plain text answer (the turn after a cut, to see what the model was sent). */
export function anthropicText(text: string): string[] {
  return [
    anthropicStart("msg_fixture_text"),
    named("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
    named("content_block_delta", { index: 0, delta: { type: "text_delta", text } }),
    named("content_block_stop", { index: 0 }),
    named("message_delta", { delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 5 } }),
    named("message_stop", {}),
  ];
}

// ---- Chat Completions ----

function chunk(delta: Record<string, unknown>, finish: string | null = null): unknown {
  return { id: "chatcmpl-fixture", object: "chat.completion.chunk", created: 1764300000, model: "gpt-fixture", choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] };
}

const chatUsage = bare({ id: "chatcmpl-fixture", object: "chat.completion.chunk", created: 1764300000, model: "gpt-fixture", choices: [], usage: { prompt_tokens: 640, completion_tokens: 64, total_tokens: 704 } });

/** A tool call whose arguments stop mid-string when the limit hits: finish_reason "length". */
export function chatCutToolCall(toolName: string): string[] {
  return [
    bare(chunk({ role: "assistant", content: null, refusal: null })),
    bare(chunk({ tool_calls: [{ index: 0, id: "call_fixture_cut", type: "function", function: { name: toolName, arguments: "" } }] })),
    bare(chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path":"big.ts",' } }] })),
    bare(chunk({ tool_calls: [{ index: 0, function: { arguments: '"content":"export const table = [' } }] })),
    bare(chunk({}, "length")),
    chatUsage,
    bare("[DONE]"),
  ];
}

/** A refusal streamed in `delta.refusal` (content stays null), ended by finish_reason "stop". */
export function chatRefusal(pieces: string[]): string[] {
  return [
    bare(chunk({ role: "assistant", content: null, refusal: "" })),
    ...pieces.map((piece) => bare(chunk({ refusal: piece }))),
    bare(chunk({}, "stop")),
    chatUsage,
    bare("[DONE]"),
  ];
}

export function chatText(text: string): string[] {
  return [bare(chunk({ role: "assistant", content: "" })), bare(chunk({ content: text })), bare(chunk({}, "stop")), chatUsage, bare("[DONE]")];
}

// ---- Responses API ----

function responseObject(status: string, output: unknown[], incomplete?: string): Record<string, unknown> {
  return {
    id: "resp_fixture",
    object: "response",
    created_at: 1764300000,
    model: "gpt-5-codex",
    status,
    output,
    error: null,
    incomplete_details: incomplete ? { reason: incomplete } : null,
    usage: { input_tokens: 700, input_tokens_details: { cached_tokens: 0 }, output_tokens: 64, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 764 },
  };
}

/** A function call cut by max_output_tokens: the item never completes, the response is incomplete. */
export function responsesCutFunctionCall(toolName: string): string[] {
  let seq = 0;
  const item = { id: "fc_fixture_cut", type: "function_call", call_id: "call_fixture_cut", name: toolName, arguments: "", status: "in_progress" };
  return [
    named("response.created", { response: responseObject("in_progress", []), sequence_number: seq++ }),
    named("response.in_progress", { response: responseObject("in_progress", []), sequence_number: seq++ }),
    named("response.output_item.added", { output_index: 0, item, sequence_number: seq++ }),
    named("response.function_call_arguments.delta", { item_id: item.id, output_index: 0, delta: '{"path":"big.ts",', sequence_number: seq++ }),
    named("response.function_call_arguments.delta", { item_id: item.id, output_index: 0, delta: '"content":"export const', sequence_number: seq++ }),
    named("response.output_item.done", { output_index: 0, item: { ...item, arguments: '{"path":"big.ts","content":"export const', status: "incomplete" }, sequence_number: seq++ }),
    named("response.incomplete", { response: responseObject("incomplete", [], "max_output_tokens"), sequence_number: seq }),
  ];
}

/** A message whose content part is a refusal, not output_text. */
export function responsesRefusal(words: string): string[] {
  let seq = 0;
  const message = { id: "msg_fixture_refusal", type: "message", role: "assistant", status: "in_progress", content: [] };
  const done = { ...message, status: "completed", content: [{ type: "refusal", refusal: words }] };
  return [
    named("response.created", { response: responseObject("in_progress", []), sequence_number: seq++ }),
    named("response.output_item.added", { output_index: 0, item: message, sequence_number: seq++ }),
    named("response.content_part.added", { item_id: message.id, output_index: 0, content_index: 0, part: { type: "refusal", refusal: "" }, sequence_number: seq++ }),
    named("response.refusal.delta", { item_id: message.id, output_index: 0, content_index: 0, delta: words, sequence_number: seq++ }),
    named("response.refusal.done", { item_id: message.id, output_index: 0, content_index: 0, refusal: words, sequence_number: seq++ }),
    named("response.content_part.done", { item_id: message.id, output_index: 0, content_index: 0, part: { type: "refusal", refusal: words }, sequence_number: seq++ }),
    named("response.output_item.done", { output_index: 0, item: done, sequence_number: seq++ }),
    named("response.completed", { response: responseObject("completed", [done]), sequence_number: seq }),
  ];
}

export function responsesText(text: string): string[] {
  let seq = 0;
  const message = { id: "msg_fixture_text", type: "message", role: "assistant", status: "in_progress", content: [] };
  const done = { ...message, status: "completed", content: [{ type: "output_text", text, annotations: [] }] };
  return [
    named("response.created", { response: responseObject("in_progress", []), sequence_number: seq++ }),
    named("response.output_item.added", { output_index: 0, item: message, sequence_number: seq++ }),
    named("response.output_text.delta", { item_id: message.id, output_index: 0, content_index: 0, delta: text, sequence_number: seq++ }),
    named("response.output_item.done", { output_index: 0, item: done, sequence_number: seq++ }),
    named("response.completed", { response: responseObject("completed", [done]), sequence_number: seq }),
  ];
}

/** One whole tool call (arguments in two pieces), finish_reason "tool_calls". */
export function chatToolCall(toolName: string, args: string): string[] {
  const half = Math.floor(args.length / 2);
  return [
    bare(chunk({ role: "assistant", content: null })),
    bare(chunk({ tool_calls: [{ index: 0, id: "call_fixture_whole", type: "function", function: { name: toolName, arguments: args.slice(0, half) } }] })),
    bare(chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(half) } }] })),
    bare(chunk({}, "tool_calls")),
    chatUsage,
    bare("[DONE]"),
  ];
}
