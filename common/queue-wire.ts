// The names and shapes of Hermes's queue extension (acp/queue-methods.ts serves them), shared
// with the VS Code extension, which shows the queue. No imports: the edge reads these names at
// start-up; the schema the extension checks a notification with is queue-changed.ts.
export const QUEUE_CAPABILITY = "hermes/queue";
/** `_meta` key of a session/prompt the client queued under its own name, and of the echo that says it started. */
export const QUEUE_ID_META = "hermes/queueId";
export const QUEUE_LIST_METHOD = "_hermes/queue/list";
export const QUEUE_REMOVE_METHOD = "_hermes/queue/remove";
export const QUEUE_CHANGED_NOTIFICATION = "_hermes/queue/changed";

/** A well-formed queue id (`_meta["hermes/queueId"]`): anything else is ignored. */
export function isQueueId(value: unknown): value is string {
  return typeof value === "string" && /^[\w.:-]{1,80}$/.test(value);
}

export interface QueuedPromptView {
  /** A queue id (isQueueId). */
  id: string;
  /** The prompt's text (attachments counted: "(+1 attached)"). */
  text: string;
}

/** `_hermes/queue/changed` params. */
export interface QueueChanged {
  sessionId: string;
  prompts: QueuedPromptView[];
}
