// The messageId a user's prompt carries over ACP, derived from its turn number (the count of
// prompts in the journal) so the live echo of a queued prompt and every later session/load name
// it the same way without storing anything. A model reply's id is random and journaled with it.

export function promptMessageId(turn: number): string {
  return `prompt-${turn}`;
}
