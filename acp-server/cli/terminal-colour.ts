// Colour for what the CLI writes, decided per stream the way terminal tools agree on: NO_COLOR (any
// non-empty value) turns it off, FORCE_COLOR (other than "0") turns it on, else only a terminal
// gets it. Markdown replies are styled with this palette too (markdown-stream.ts), so no library's
// own guess (chalk turns colour off whenever a CI variable is set, even on a terminal) decides.

export interface Palette {
  enabled: boolean;
  red: (text: string) => string;
  green: (text: string) => string;
  yellow: (text: string) => string;
  cyan: (text: string) => string;
  blue: (text: string) => string;
  magenta: (text: string) => string;
  gray: (text: string) => string;
  dim: (text: string) => string;
  bold: (text: string) => string;
  italic: (text: string) => string;
  underline: (text: string) => string;
  strikethrough: (text: string) => string;
}

export function colourWanted(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0") return true;
  return stream.isTTY === true;
}

export function palette(enabled: boolean): Palette {
  // Each style resets only itself (22 ends bold and dim, 39 the colour), so styles can nest.
  const style = (open: number, close: number) => (text: string) => (enabled && text ? `\x1b[${open}m${text}\x1b[${close}m` : text);
  return {
    enabled,
    red: style(31, 39),
    green: style(32, 39),
    yellow: style(33, 39),
    cyan: style(36, 39),
    blue: style(34, 39),
    magenta: style(35, 39),
    gray: style(90, 39),
    dim: style(2, 22),
    bold: style(1, 22),
    italic: style(3, 23),
    underline: style(4, 24),
    strikethrough: style(9, 29),
  };
}

export function paletteFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): Palette {
  return palette(colourWanted(stream, env));
}
