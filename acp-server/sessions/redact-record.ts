// Credentials never reach the disk, and a journal written before a rule existed never brings
// one back. Every record is redacted as it is written (recorder.ts) and stamped with the
// version of the rules that did it (REDACTION_VERSION). On load, a record stamped with the
// current version only needs the agent's own secrets looked for again (a value registered
// since it was written, e.g. a key added to config.yaml later); any other record (no stamp:
// written before stamps or by an older Hermes; another version: unknown) goes through every
// rule again. A loaded record is redacted once and the result shared by the model history
// (history.ts) and the replay (acp/replay.ts).
//
// Only text is redacted: replay blocks' plaintext (thinking, reasoning summaries) is, their
// opaque parts (signatures, encrypted reasoning) are kept (redact-replay.ts); images are pixels.
import type { ChatMessage } from "../providers/types";
import { REDACTION_VERSION, redactDeep, redactSecrets } from "../util/redact";
import { containsKnownValue, hasSecretValues, redactKnownValues } from "../util/secret-values";
import { redactReplay } from "./redact-replay";
import type { JournalRecord } from "./types";

export function redactMessage(message: ChatMessage): ChatMessage {
  return mapMessageText(message, redactSecrets);
}

/** A journal record with every piece of text redacted and the rules' stamp (the meta line holds only ids and paths). */
export function redactRecord(record: JournalRecord): JournalRecord {
  switch (record.t) {
    case "meta":
      return record;
    case "message":
      return { ...record, message: redactMessage(record.message), redaction: REDACTION_VERSION };
    default:
      return { ...redactDeep(record), redaction: REDACTION_VERSION };
  }
}

/** A loaded journal's records → the same records redacted for today's rules (one entry per load). */
const loaded = new WeakMap<readonly JournalRecord[], JournalRecord[]>();

/**
 * The records of a journal as read, safe to give back to the model or the client. Computed
 * once per array: the history restore and the replay of one load share the work. A record
 * written by this version costs a comparison (plus the registered values' scan, if any).
 */
export function redactLoadedRecords(records: readonly JournalRecord[]): JournalRecord[] {
  const known = loaded.get(records);
  if (known !== undefined) return known;
  const values = hasSecretValues();
  const clean = records.map((record) => {
    if (record.t === "meta") return record;
    if (record.redaction !== REDACTION_VERSION) return redactRecord(record);
    return values ? redactValuesOnly(record) : record;
  });
  loaded.set(records, clean);
  loaded.set(clean, clean);
  return clean;
}

/**
 * A current record with the agent's registered secret values masked (the rules already ran).
 * Almost no record holds one: they are scanned without copying, and only a hit is copied.
 */
function redactValuesOnly(record: JournalRecord): JournalRecord {
  if (!someString(record, containsKnownValue)) return record;
  switch (record.t) {
    case "meta":
      return record;
    case "message":
      return { ...record, message: mapMessageText(record.message, redactKnownValues) };
    default:
      return mapStrings(record, redactKnownValues) as JournalRecord;
  }
}

function mapMessageText(message: ChatMessage, redact: (text: string) => string): ChatMessage {
  switch (message.role) {
    case "user":
      return { ...message, content: message.content.map((part) => (part.type === "text" ? { ...part, text: redact(part.text) } : part)) };
    case "assistant":
      return {
        ...message,
        content: redact(message.content),
        ...(message.reasoning ? { reasoning: redact(message.reasoning) } : {}),
        ...(message.toolCalls ? { toolCalls: message.toolCalls.map((call) => ({ ...call, arguments: redact(call.arguments) })) } : {}),
        ...(message.replay ? { replay: redactReplay(message.replay, redact) } : {}),
      };
    case "tool":
    case "system":
      return { ...message, content: redact(message.content) };
    default:
      return message;
  }
}

/** Whether `test` holds for any string value in parsed JSON (keys are not looked at). */
function someString(value: unknown, test: (text: string) => boolean): boolean {
  if (typeof value === "string") return test(value);
  if (value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) return value.some((item) => someString(item, test));
  for (const key in value) if (someString((value as Record<string, unknown>)[key], test)) return true;
  return false;
}

/** A copy of parsed JSON with `map` applied to every string value (keys are kept). */
function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === "string") return map(value);
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = mapStrings((value as Record<string, unknown>)[key], map);
  return copy;
}
