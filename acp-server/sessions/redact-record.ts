// Credentials never reach the disk, and a journal written before a rule existed never brings
// one back: every record is redacted as it is written (recorder.ts) and every message as it
// is restored for the model (history.ts). Replay blocks' plaintext (thinking, reasoning
// summaries) is redacted too, their opaque parts kept (redact-replay.ts); images are pixels.
import type { ChatMessage } from "../providers/types";
import { redactDeep, redactSecrets } from "../util/redact";
import { redactReplay } from "./redact-replay";
import type { JournalRecord } from "./types";

export function redactMessage(message: ChatMessage): ChatMessage {
  switch (message.role) {
    case "user":
      return { ...message, content: message.content.map((part) => (part.type === "text" ? { ...part, text: redactSecrets(part.text) } : part)) };
    case "assistant":
      return {
        ...message,
        content: redactSecrets(message.content),
        ...(message.reasoning ? { reasoning: redactSecrets(message.reasoning) } : {}),
        ...(message.toolCalls ? { toolCalls: message.toolCalls.map((call) => ({ ...call, arguments: redactSecrets(call.arguments) })) } : {}),
        ...(message.replay ? { replay: redactReplay(message.replay) } : {}),
      };
    case "tool":
    case "system":
      return { ...message, content: redactSecrets(message.content) };
    default:
      return message;
  }
}

/** A journal record with every piece of text redacted (the meta line holds only ids and paths). */
export function redactRecord(record: JournalRecord): JournalRecord {
  switch (record.t) {
    case "meta":
      return record;
    case "message":
      return { ...record, message: redactMessage(record.message) };
    default:
      return redactDeep(record);
  }
}
