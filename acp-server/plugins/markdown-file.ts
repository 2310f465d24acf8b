// A plugin's markdown file (a command or an agent): its optional `---` YAML frontmatter and its
// body. Broken frontmatter counts as none, so the body still works; an unreadable file is undefined.
import { readFileSync } from "node:fs";
import { yaml } from "../util/yaml";

export interface MarkdownFile {
  data: Record<string, unknown>;
  body: string;
}

export function readMarkdownFile(file: string): MarkdownFile | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    // expected: a file removed since the plugin was read; the caller says what that means for it
    return undefined;
  }
  const match = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match) return { data: {}, body: text };
  let data: unknown;
  try {
    data = yaml().parse(match[1] ?? "");
  } catch {
    // expected: broken frontmatter is treated as none
    data = {};
  }
  const record = typeof data === "object" && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  return { data: record, body: text.slice(match[0].length) };
}
