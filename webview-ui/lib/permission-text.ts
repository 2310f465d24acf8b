// A permission's explanation split into its parts: fenced blocks (the command) stay code, the
// words around them (why it needs approval) are prose. Pure.

export type PermissionTextPart = { kind: "code"; text: string } | { kind: "prose"; text: string };

const FENCED = /^```[^\n]*\n([\s\S]*?)\n```[ \t]*$/gm;

export function splitPermissionText(text: string): PermissionTextPart[] {
  const parts: PermissionTextPart[] = [];
  const prose = (chunk: string) => {
    const trimmed = chunk.trim();
    if (trimmed) parts.push({ kind: "prose", text: trimmed });
  };
  let last = 0;
  for (const match of text.matchAll(FENCED)) {
    prose(text.slice(last, match.index));
    parts.push({ kind: "code", text: match[1] ?? "" });
    last = match.index + match[0].length;
  }
  prose(text.slice(last));
  return parts;
}
