// What the composer offers while typing: slash commands at the start of the box, and `@`
// mentions of workspace files at the caret. Pure string logic, tested in test/unit.

export interface CommandLike {
  name: string;
  description: string;
}

/** The command being typed: "/he" → "he"; undefined once the name is complete (a space typed) or not at the start. */
export function slashQuery(text: string): string | undefined {
  const match = /^\/([\w-]*)$/.exec(text);
  return match ? match[1] : undefined;
}

/** Commands matching `query`: name prefix first, then names containing it, then description hits. */
export function matchCommands<T extends CommandLike>(commands: readonly T[], query: string, limit = 12): T[] {
  const q = query.toLowerCase();
  const rank = (c: T): number => {
    const name = c.name.toLowerCase();
    if (name.startsWith(q)) return 0;
    if (name.includes(q)) return 1;
    // One letter would match nearly every description.
    if (q.length >= 2 && c.description.toLowerCase().includes(q)) return 2;
    return -1;
  };
  return commands
    .map((c) => ({ c, r: rank(c) }))
    .filter((x) => x.r >= 0)
    .sort((a, b) => a.r - b.r || a.c.name.localeCompare(b.c.name))
    .slice(0, limit)
    .map((x) => x.c);
}

/** The `@word` ending at the caret: its query and where the `@` is; undefined when the caret is not in one. */
export function mentionAt(text: string, caret: number): { query: string; start: number } | undefined {
  const before = text.slice(0, caret);
  const match = /(^|\s)@([^\s@]*)$/.exec(before);
  if (!match) return undefined;
  return { query: match[2], start: before.length - match[2].length - 1 };
}

/**
 * The text with the typed `@query` at `start..caret` completed to `@<name>` and one space: the
 * sentence keeps its word ("Look at @app.js"), and the file also goes along as an attachment.
 * A name with spaces would end the mention early, so it is not split.
 */
export function insertMention(text: string, start: number, caret: number, name: string): { text: string; caret: number } {
  const after = text.slice(caret).replace(/^ /, "");
  const word = `@${name} `;
  const head = text.slice(0, start) + word;
  return { text: head + after, caret: head.length };
}

/** Moves a list selection by `delta`, wrapping around. */
export function moveSelection(index: number, delta: number, length: number): number {
  if (length <= 0) return 0;
  return (((index + delta) % length) + length) % length;
}
