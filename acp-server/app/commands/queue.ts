// /queue: the prompts waiting behind the running turn; /queue clear drops them (their requests
// answer `cancelled`). Answered the moment it arrives, even mid-turn.
import { defineCommand } from "../../runtime/slash-command";
import { invalidParams } from "../../util/agent-error";

export const queueCommand = defineCommand({
  name: "queue",
  description: "Prompts waiting behind the running turn; /queue clear drops them",
  hint: "clear (empty: list)",
  immediate: true,
  run({ argument, session, output }) {
    const word = argument.toLowerCase();
    if (word === "clear") return output.say(`\n\n${clearedText(session.clearQueue())}\n\n`);
    if (word) throw invalidParams(`/queue takes no argument or "clear", not "${argument}"`, { sessionId: session.id });
    return output.say(`\n\n${queueListing(session.waiting.map((prompt) => prompt.label))}\n\n`);
  },
});

/** What /queue clear says it did. */
export function clearedText(dropped: number): string {
  return dropped === 0 ? "The queue is empty: nothing to clear." : `Cleared the queue: ${dropped} waiting ${dropped === 1 ? "prompt" : "prompts"} dropped.`;
}

/** The waiting prompts, numbered, each on one line. */
export function queueListing(waiting: readonly string[]): string {
  if (waiting.length === 0) return "The queue is empty: no prompt waits behind the running turn.";
  const lines = waiting.map((label, index) => `${index + 1}. ${oneLine(label) || "(attachments only)"}`);
  return `${waiting.length === 1 ? "1 prompt waits" : `${waiting.length} prompts wait`} behind the running turn:\n${lines.join("\n")}\n\n\`/queue clear\` drops them.`;
}

function oneLine(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
