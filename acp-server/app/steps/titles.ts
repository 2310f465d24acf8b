// Session titles: the first line of the first prompt at once, then a short title written by
// the auxiliary model in the background.
import type { ModelChoice } from "../../agent/model-choice";
import type { ChatMessage, UserPart } from "../../providers/types";

const MAX_TITLE = 80;

export function firstLineTitle(parts: UserPart[]): string | undefined {
  const text = parts.find((part): part is Extract<UserPart, { type: "text" }> => part.type === "text")?.text ?? "";
  const line = text.split("\n").map((l) => l.trim()).find((l) => l !== "" && !l.startsWith("<file"));
  return line ? clip(line) : undefined;
}

const TITLE_INSTRUCTIONS =
  "Write a title for this coding conversation: 3 to 7 words, sentence case, no quotes, no trailing period. Reply with the title only.";

/** Asks the auxiliary model for a title; undefined when it fails or says nothing useful. */
export async function generateTitle(model: ModelChoice, history: readonly ChatMessage[], signal: AbortSignal): Promise<string | undefined> {
  const excerpt = history
    .filter((m) => m.role === "user" || (m.role === "assistant" && m.content))
    .slice(0, 4)
    .map((m) => `${m.role}: ${m.role === "user" ? m.content.map((p) => (p.type === "text" ? p.text : "[image]")).join(" ") : m.role === "assistant" ? m.content : ""}`)
    .join("\n")
    .slice(0, 4000);
  let text = "";
  // A failure (the model, the timeout) reaches the caller, which logs it: the session keeps its first-line title.
  const request = { messages: [{ role: "system" as const, content: TITLE_INSTRUCTIONS }, { role: "user" as const, content: [{ type: "text" as const, text: excerpt }] }], tools: [], maxTokens: 40 };
  for await (const event of model.provider.stream(request, signal)) if (event.type === "text_delta") text += event.text;
  const title = (text.split("\n")[0] ?? "").replace(/^["'`#*\s]+|["'`*.\s]+$/g, "").trim();
  return title ? clip(title) : undefined;
}

function clip(text: string): string {
  return text.length > MAX_TITLE ? `${text.slice(0, MAX_TITLE - 1)}…` : text;
}
