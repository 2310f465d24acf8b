// A session's first prompt, as a history row shows it (what a user remembers a chat by): one
// line, redacted, at most FIRST_PROMPT_CHARS long. Shared by the session list and the
// history search.
import type { SessionStore } from "./session-store";
import { redactSecrets } from "../util/redact";

export const FIRST_PROMPT_CHARS = 200;

export async function firstPromptOf(store: SessionStore, sessionId: string): Promise<string | undefined> {
  const first = (await store.messages(sessionId, { limit: 4 })).find((message) => message.role === "user");
  if (!first) return undefined;
  const line = redactSecrets(first.text).replace(/\s+/g, " ").trim();
  if (!line) return undefined;
  return line.length > FIRST_PROMPT_CHARS ? `${line.slice(0, FIRST_PROMPT_CHARS - 1)}…` : line;
}
