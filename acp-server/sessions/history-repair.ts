// Keeps a model history valid to send to every provider: each assistant tool call is followed
// by its result (OpenAI wants the tool messages right after the assistant's tool_calls,
// Anthropic wants the tool_result right after the tool_use), no stray results, and roles
// alternate (no two user or two plain assistant messages in a row).
import type { ChatMessage } from "../providers/types";

type AssistantMessage = Extract<ChatMessage, { role: "assistant" }>;
type UserMessage = Extract<ChatMessage, { role: "user" }>;

/** What a tool result says when the process stopped before the tool finished. */
export const INTERRUPTED_RESULT = JSON.stringify({ error: "Interrupted: Hermes stopped before this tool call finished. Check its effects before retrying." });

/**
 * Every assistant tool call must be followed by its result, in call order, before the next
 * turn; providers reject anything else. Results are journaled as each tool finishes, so after
 * a crash some may be missing (they become "interrupted") or out of call order (reordered).
 */
export function repairToolResults(messages: readonly ChatMessage[]): ChatMessage[] {
  const repaired: ChatMessage[] = [];
  for (const [i, message] of messages.entries()) {
    if (message.role === "tool") continue; // placed with its assistant message below; strays dropped
    repaired.push(message);
    if (message.role !== "assistant" || !message.toolCalls?.length) continue;
    const results = new Map<string, ChatMessage>();
    for (let j = i + 1, result = messages[j]; result?.role === "tool"; result = messages[++j]) {
      results.set(result.toolCallId, result);
    }
    for (const call of message.toolCalls) {
      repaired.push(results.get(call.id) ?? { role: "tool", toolCallId: call.id, name: call.name, content: INTERRUPTED_RESULT });
    }
  }
  return repaired;
}

/**
 * Tool pairs repaired (orphaned results dropped, calls without a result answered) and roles
 * alternating: consecutive user messages become one, and a plain assistant message followed
 * by another assistant message is merged into it. Idempotent.
 */
export function sanitizeHistory(messages: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const message of repairToolResults(messages)) {
    const last = out.at(-1);
    if (last?.role === "user" && message.role === "user") out[out.length - 1] = mergeUsers(last, message);
    else if (last?.role === "assistant" && message.role === "assistant" && !last.toolCalls?.length) out[out.length - 1] = mergeAssistants(last, message);
    else out.push(message);
  }
  return out;
}

function mergeUsers(first: UserMessage, second: UserMessage): UserMessage {
  return { role: "user", content: [...first.content, ...second.content] };
}

/** The second message wins what must stay paired with it (tool calls, provider replay blocks). */
function mergeAssistants(first: AssistantMessage, second: AssistantMessage): AssistantMessage {
  const join = (a?: string, b?: string) => [a, b].filter((text) => text).join("\n\n");
  const reasoning = join(first.reasoning, second.reasoning);
  return {
    role: "assistant",
    content: join(first.content, second.content),
    ...(reasoning ? { reasoning } : {}),
    ...(second.toolCalls?.length ? { toolCalls: second.toolCalls } : {}),
    ...(second.replay?.length ? { replay: second.replay } : {}),
  };
}
