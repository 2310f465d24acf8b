// A file path shortened for a narrow panel (tool cards and their diffs). Pure.

/** The last two path segments: enough to recognise a file in a narrow panel. */
export function shortPath(path: string): string {
  const parts = path.split(/[\\/]/).filter(Boolean);
  return parts.length <= 2 ? parts.join("/") : `…/${parts.slice(-2).join("/")}`;
}
