// A unified diff, compact: a sign gutter, the new-side line number and the text, coloured with
// the editor's own diff colours. Long diffs show their first lines with a "show all" toggle.
import type { DiffLine } from "../../common/line-diff";
import { useExpanded } from "../bridge/view-state";

interface Props {
  lines: DiffLine[];
  /** First new-side line number (1-based). */
  newStart?: number;
  oldStart?: number;
  /** Key for remembering "show all". */
  expandKey: string;
  limit?: number;
}

export function DiffView({ lines, newStart = 1, oldStart = 1, expandKey, limit = 40 }: Props) {
  const [all, setAll] = useExpanded(expandKey, false);
  const shown = all ? lines : lines.slice(0, limit);
  let oldNo = oldStart;
  let newNo = newStart;
  return (
    <div class="diff" role="table" aria-label="Changes">
      {shown.map((line, i) => {
        // Removed lines show their old number; added and context lines their new one.
        const number = line.op === "-" ? oldNo : newNo;
        if (line.op !== "+") oldNo++;
        if (line.op !== "-") newNo++;
        return (
          <div key={i} class={`diff-line ${line.op === "+" ? "add" : line.op === "-" ? "del" : "ctx"}`} role="row">
            <span class="diff-no" role="cell">{number}</span>
            <span class="diff-sign" role="cell" aria-label={line.op === "+" ? "added" : line.op === "-" ? "removed" : undefined}>
              {line.op === " " ? "" : line.op}
            </span>
            <span class="diff-text" role="cell">{line.text || " "}</span>
          </div>
        );
      })}
      {lines.length > limit && (
        <button type="button" class="link-button diff-more" onClick={() => setAll(!all)} aria-expanded={all}>
          {all ? "Show less" : `Show ${lines.length - limit} more lines`}
        </button>
      )}
    </div>
  );
}
