// The session's queue for a client that shows it beside the composer (the VS Code panel), so
// the panel and `/queue` read one list: the server's.
// - `_hermes/queue/list` {sessionId} → {prompts: [{id, text}], text}: the waiting prompts and
//   /queue's own listing text.
// - `_hermes/queue/remove` {sessionId, id?} → {removed, text}: drops that waiting prompt, or every
//   one (what `/queue clear` does); their session/prompt requests answer `cancelled`.
// - `_hermes/queue/changed` {sessionId, prompts}: sent each time the list changes, only to a
//   client that advertised `clientCapabilities._meta["hermes/queue"]` (others never see it).
// A prompt a client queued under its own name (`_meta["hermes/queueId"]` on session/prompt) keeps
// that id here and in the `user_message_chunk` echo that says it started.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import * as z from "zod";
import { invalidParams } from "../util/agent-error";
import type { Logger } from "../util/log";
import type { LiveSession, WaitingPrompt } from "../runtime/live-session";
import { clearedText, queueListing } from "../app/commands/queue";
import { QUEUE_CHANGED_NOTIFICATION, QUEUE_LIST_METHOD, QUEUE_REMOVE_METHOD, type QueueChanged, type QueuedPromptView } from "../../common/queue-wire";

const listSchema = z.object({ sessionId: z.string().min(1).max(200) });
const removeSchema = z.object({ sessionId: z.string().min(1).max(200), id: z.string().min(1).max(200).optional() });

function parse<T>(schema: z.ZodType<T>, method: string, raw: unknown): T {
  const parsed = schema.safeParse(raw ?? {});
  if (!parsed.success) throw invalidParams(`invalid ${method} params: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

export const listQueueParams = (raw: unknown) => parse(listSchema, QUEUE_LIST_METHOD, raw);
export const removeQueueParams = (raw: unknown) => parse(removeSchema, QUEUE_REMOVE_METHOD, raw);

const view = (waiting: readonly WaitingPrompt[]): QueuedPromptView[] => waiting.map(({ id, label }) => ({ id, text: label }));

export function listQueue(session: LiveSession): { prompts: QueuedPromptView[]; text: string } {
  const waiting = session.waiting;
  return { prompts: view(waiting), text: queueListing(waiting.map((prompt) => prompt.label)) };
}

export function removeFromQueue(session: LiveSession, id: string | undefined): { removed: number; text: string } {
  const removed = session.clearQueue(id);
  return { removed, text: id === undefined ? clearedText(removed) : removed ? "Removed the prompt from the queue." : "That prompt is no longer waiting (it started or was dropped)." };
}

/**
 * Tells the client about every change of `session`'s queue from now on, and its current list
 * (after the response that opened the session: a list that went out first could reach a client
 * that does not know the session yet).
 */
export function sendQueueChanges(client: acp.AgentContext, session: LiveSession, log: Logger): () => void {
  const send = (waiting: readonly WaitingPrompt[]) => {
    const params: QueueChanged = { sessionId: session.id, prompts: view(waiting) };
    client.notify(QUEUE_CHANGED_NOTIFICATION, params).catch((error: unknown) => log.warn("the queue update could not be sent", { error }));
  };
  setImmediate(() => send(session.waiting));
  return session.watchQueue(send);
}
