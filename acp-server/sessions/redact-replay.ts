// Provider replay blocks as the journal stores them. They go back to the API verbatim, but
// they carry plaintext too: an Anthropic thinking block holds the model's whole chain of
// thought (where a key it read may be quoted), a Responses reasoning item its summary. On disk
// that text is redacted like any other. A signed thinking block cannot be edited (the API
// checks the signature), so one whose text held a secret is dropped from the journal: after a
// restore the model simply has no reasoning to replay for that turn (as after a model switch).
// The encrypted parts (signature, redacted_thinking data, encrypted_content) are opaque and kept.
import type { ReplayBlock } from "../providers/types";
import { redactSecrets } from "../util/redact";

/** `redact`: the redactor to apply (a load of a current record only looks for registered values). */
export function redactReplay(blocks: ReplayBlock[], redact: (text: string) => string = redactSecrets): ReplayBlock[] {
  const kept: ReplayBlock[] = [];
  for (const block of blocks) {
    const data = block.data as Record<string, unknown> | null;
    if (data === null || typeof data !== "object") {
      kept.push(block);
      continue;
    }
    if (data.type === "thinking" && typeof data.thinking === "string") {
      if (redact(data.thinking) === data.thinking) kept.push(block);
      continue;
    }
    if (data.type === "reasoning" && Array.isArray(data.summary)) {
      const summary = data.summary.map((part: unknown) => {
        const item = part as Record<string, unknown> | null;
        return item && typeof item.text === "string" ? { ...item, text: redact(item.text) } : part;
      });
      kept.push({ ...block, data: { ...data, summary } });
      continue;
    }
    kept.push(block);
  }
  return kept;
}
