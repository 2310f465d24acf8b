// Command output as the agent sends it in a tool card: one markdown code fence around the
// output, then an optional footer line ("exit code 1"). See fenced() in
// acp-server/tools/terminal.ts. Anything else is not this shape and is shown as it is.

export interface FencedOutput {
  /** The text inside the fence, without its final newline; "" when there was no output. */
  body: string;
  /** The info string after the opening fence, if any. */
  language?: string;
  /** The single line after the closing fence, if any. */
  footer?: string;
}

const OPENING = /^(`{3,}|~{3,})[ \t]*([^\s`]*)[^`]*$/;

/** The parts of `text` when it is exactly one fenced block plus an optional footer line; else undefined. */
export function parseFencedOutput(text: string): FencedOutput | undefined {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const open = OPENING.exec(lines[0]);
  if (!open) return undefined;
  const fence = open[1];
  // CommonMark: the block closes at the first line of the same character, at least as long, and nothing else.
  const closing = new RegExp(`^${fence[0] === "`" ? "`" : "~"}{${fence.length},}[ \\t]*$`);
  const close = lines.findIndex((line, i) => i > 0 && closing.test(line));
  if (close < 0) return undefined;
  const rest = lines.slice(close + 1);
  if (rest.length > 0 && rest[rest.length - 1] === "") rest.pop();
  if (rest.length > 1) return undefined;
  const footer = rest[0]?.trim();
  if (footer && OPENING.test(footer)) return undefined;
  const body = lines.slice(1, close).join("\n");
  return {
    body: body.trim() === "" ? "" : body,
    ...(open[2] ? { language: open[2] } : {}),
    ...(footer ? { footer } : {}),
  };
}
