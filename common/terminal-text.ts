// Raw terminal output → plain text for a <pre>: escape sequences (colours, cursor moves,
// titles) dropped, and a line redrawn with carriage returns (progress bars) shows its last state.

// CSI (ESC [ … final), OSC (ESC ] … BEL or ESC \), and two-character escapes.
// eslint-disable-next-line no-control-regex
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

export function terminalText(raw: string): string {
  const text = raw.replace(ESCAPES, "").replace(/\r+\n/g, "\n");
  if (!text.includes("\r")) return text;
  return text
    .split("\n")
    .map((line) => {
      if (!line.includes("\r")) return line;
      // What is left on screen: each \r returns to the start and overwrites from there.
      let screen = "";
      for (const part of line.split("\r")) screen = part + screen.slice(part.length);
      return screen;
    })
    .join("\n");
}
