// One short text from the auxiliary model for a tool (session_search's summaries): a single
// call without tools, whose tokens and cost count in the session's usage like the learning
// review's. Tools get it as ToolContext.summarize and never see a model or a provider.
import type { TokenUsage } from "../providers/types";
import type { ModelChoice } from "./model-choice";
import type { AgentSession } from "./session";

/** A call that has not answered in this long is given up (the tool falls back to snippets). */
const TEXT_TIMEOUT_MS = 60_000;

export interface AuxiliaryTextRequest {
  instructions: string;
  text: string;
  maxTokens: number;
}

/** The model's answer, trimmed; throws when the call fails or is aborted. */
export async function auxiliaryText(model: ModelChoice, session: AgentSession, request: AuxiliaryTextRequest, signal: AbortSignal): Promise<string> {
  const timeout = AbortSignal.any([signal, AbortSignal.timeout(TEXT_TIMEOUT_MS)]);
  const modelRequest = {
    messages: [
      { role: "system" as const, content: request.instructions },
      { role: "user" as const, content: [{ type: "text" as const, text: request.text }] },
    ],
    tools: [],
    maxTokens: Math.min(request.maxTokens, model.maxOutputTokens),
  };
  let text = "";
  let usage: TokenUsage | undefined;
  for await (const event of model.provider.stream(modelRequest, timeout)) {
    if (event.type === "text_delta") text += event.text;
    else if (event.type === "usage") usage = event.usage;
  }
  // The session's account (a subagent's feeds its parent's), not its context size: this call is not the conversation.
  if (usage) session.recordChildUsage(usage, model.price);
  return text.trim();
}
