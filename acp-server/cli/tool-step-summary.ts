// What a finished tool step amounts to, said on its one line after the title (`✓ read a.ts (120
// lines)`, `✓ web_search "q" — 5 results`, `✗ $ npm test — exit 1`), read from the result the model
// got (rawOutput); the whole output stays under /expand and Ctrl-O. Nothing known: no summary.

/** The suffix for a step's line ("" when the result says nothing countable). */
export function toolStepSummary(rawOutput: unknown): string {
  if (typeof rawOutput === "string") {
    const results = /^(\d+) results? from /.exec(rawOutput);
    return results ? ` — ${results[1]} result${results[1] === "1" ? "" : "s"}` : "";
  }
  if (!rawOutput || typeof rawOutput !== "object") return "";
  const raw = rawOutput as Record<string, unknown>;
  const exit = raw.exit_code ?? raw.exitCode;
  if (typeof exit === "number" && exit !== 0) return ` — exit ${exit}`;
  if (typeof raw.lines_returned === "number" && typeof raw.total_lines === "number") {
    const lines = (count: number) => `${count} line${count === 1 ? "" : "s"}`;
    return raw.lines_returned >= raw.total_lines ? ` (${lines(raw.total_lines)})` : ` (${raw.lines_returned} of ${lines(raw.total_lines)})`;
  }
  if (Array.isArray(raw.matches) && typeof raw.total === "number") return ` — ${raw.total} match${raw.total === 1 ? "" : "es"}`;
  return "";
}
