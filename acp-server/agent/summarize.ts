// Writes (or updates) the structured summary of the compressed middle of a conversation
// with the auxiliary model, falling back to the main model. Never throws: a failure comes
// back as a reason, so compression can degrade instead of losing the session.
import { isAbortError } from "../providers/stream-guard";
import type { ChatMessage, ModelRequest } from "../providers/types";
import { imageFacts } from "../sessions/image-placeholder";
import type { Logger } from "../util/log";
import type { ModelChoice } from "./model-choice";

/** Tests and logs recognize a summary request by this opening. */
export const SUMMARY_REQUEST_MARK = "You are compressing the earlier part of a coding session";

export const SUMMARY_SECTIONS = [
  "## Goal",
  "## Constraints & Preferences",
  "## Progress",
  "### Done",
  "### In progress",
  "### Blocked",
  "## Key Decisions",
  "## Relevant Files",
  "## Next Steps",
  "## Critical Context",
] as const;

const INSTRUCTIONS = `${SUMMARY_REQUEST_MARK} between a user and Hermes, an AI coding agent, so that the agent can continue the work without it.

Reply with the summary only, in exactly this structure (markdown headings, in this order):

${SUMMARY_SECTIONS.join("\n")}

Be specific and dense: file paths, function and variable names, commands, error messages, values and versions, and what the user asked for in their own words when it matters. Record decisions with their reasons. Write "None" under a heading with nothing to say. Do not answer the user, continue the work, or add anything outside the structure.`;

const UPDATE_INSTRUCTIONS =
  "The conversation was compressed before. Below is the summary written then, followed by the turns since. " +
  "Update the summary: keep what is still true, move finished work to Done, add new decisions, files and next steps, and drop what is obsolete. " +
  "Reply with the complete updated summary in the same structure.";

/** Each message of the middle gets at most this much room before the budget is shared. */
const MESSAGE_CHARS = 6_000;
const SUMMARY_TIMEOUT_MS = 120_000;

export type SummaryResult = { ok: true; text: string; model: string } | { ok: false; reason: string } | { cancelled: true };

export interface SummaryInput {
  previousSummary?: string;
  middle: ChatMessage[];
  maxTokens: number;
}

/** Tries each model in order (the auxiliary first); the first useful summary wins. */
export async function writeSummary(models: ModelChoice[], input: SummaryInput, signal: AbortSignal, log: Logger): Promise<SummaryResult> {
  const reasons: string[] = [];
  for (const model of models) {
    if (signal.aborted) return { cancelled: true };
    try {
      const text = (await streamText(model, summaryRequest(input, model), signal)).trim();
      if (text) return { ok: true, text, model: model.id };
      reasons.push(`${model.id}: empty summary`);
    } catch (error) {
      if (signal.aborted) return { cancelled: true };
      const reason = isAbortError(error) ? "timed out" : ((error as Error)?.message ?? String(error));
      log.warn("summary call failed", { model: model.id, reason });
      reasons.push(`${model.id}: ${reason}`);
    }
  }
  return { ok: false, reason: reasons.join("; ") || "no model to write it" };
}

export function summaryRequest(input: SummaryInput, model: ModelChoice): ModelRequest {
  // The request must fit the summarizer's own window, with room for its answer.
  const budgetChars = Math.max(8_000, (model.contextWindow - input.maxTokens) * 3 - INSTRUCTIONS.length - (input.previousSummary?.length ?? 0));
  const transcript = serializeMiddle(input.middle, budgetChars);
  const body = input.previousSummary
    ? `${UPDATE_INSTRUCTIONS}\n\n<previous-summary>\n${input.previousSummary}\n</previous-summary>\n\n<new-turns>\n${transcript}\n</new-turns>`
    : `<conversation>\n${transcript}\n</conversation>`;
  return {
    messages: [
      { role: "system", content: INSTRUCTIONS },
      { role: "user", content: [{ type: "text", text: body }] },
    ],
    tools: [],
    maxTokens: Math.min(input.maxTokens, model.maxOutputTokens),
  };
}

/** The middle as plain text, each message clipped so the whole stays within `budgetChars`. */
export function serializeMiddle(messages: ChatMessage[], budgetChars: number): string {
  const perMessage = Math.max(300, Math.min(MESSAGE_CHARS, Math.floor(budgetChars / Math.max(1, messages.length))));
  const lines = messages.map((message) => clip(describe(message), perMessage));
  let text = lines.join("\n\n");
  if (text.length > budgetChars) text = `[… earlier messages omitted …]\n\n${text.slice(text.length - budgetChars)}`;
  return text;
}

function describe(message: ChatMessage): string {
  switch (message.role) {
    case "system":
      return `SYSTEM: ${message.content}`;
    case "user":
      return `USER: ${message.content.map((part) => (part.type === "text" ? part.text : `[image pasted by the user: ${imageFacts(part)}]`)).join("\n")}`;
    case "assistant": {
      const calls = (message.toolCalls ?? []).map((call) => `\n[called ${call.name}(${clip(call.arguments, 400)})]`).join("");
      return `ASSISTANT: ${message.content}${calls}`;
    }
    case "tool":
      return `TOOL RESULT (${message.name}): ${message.content}${(message.images ?? []).map((image) => `\n[image returned by the tool: ${imageFacts(image)}]`).join("")}`;
  }
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)} [… ${text.length - max} more characters]`;
}

async function streamText(model: ModelChoice, request: ModelRequest, signal: AbortSignal): Promise<string> {
  const timeout = AbortSignal.any([signal, AbortSignal.timeout(SUMMARY_TIMEOUT_MS)]);
  let text = "";
  for await (const event of model.provider.stream(request, timeout)) if (event.type === "text_delta") text += event.text;
  return text;
}
