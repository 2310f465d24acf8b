// Colour for what the CLI writes, decided per stream the way terminal tools agree on: NO_COLOR (any
// non-empty value) turns it off, FORCE_COLOR (other than "0") turns it on, else only a terminal
// gets it. Markdown replies decide the same way through chalk (markdown-stream.ts).

export interface Palette {
  enabled: boolean;
  red: (text: string) => string;
  green: (text: string) => string;
  yellow: (text: string) => string;
  cyan: (text: string) => string;
  dim: (text: string) => string;
  bold: (text: string) => string;
}

export function colourWanted(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0") return true;
  return stream.isTTY === true;
}

export function palette(enabled: boolean): Palette {
  // Each style resets only itself (22 ends bold and dim, 39 the colour), so styles can nest.
  const style = (open: number, close: number) => (text: string) => (enabled && text ? `\x1b[${open}m${text}\x1b[${close}m` : text);
  return { enabled, red: style(31, 39), green: style(32, 39), yellow: style(33, 39), cyan: style(36, 39), dim: style(2, 22), bold: style(1, 22) };
}

export function paletteFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): Palette {
  return palette(colourWanted(stream, env));
}
