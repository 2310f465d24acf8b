// What a permission question shows with its title: for a command, the command itself and why it
// was flagged; then the ask's own preview (an edit's diff). One function, so the prompt the
// editor gets and the question the journal keeps (replayed after a restart) say the same.
import type { DisplayContent, PermissionAsk } from "../tools/context";

export function permissionContent(ask: PermissionAsk): DisplayContent[] {
  const lines: string[] = [];
  if (ask.command !== undefined) lines.push(`\`\`\`sh\n${ask.command}\n\`\`\``);
  if (ask.reasons?.length) lines.push(`Needs approval: ${ask.reasons.join("; ")}.`);
  return [...(lines.length ? [{ type: "text" as const, text: lines.join("\n") }] : []), ...(ask.content ?? [])];
}
