// Text output in a <pre>, folded to its first (or, for live output, last) lines until the user
// asks for all. `follow`: stays scrolled to the bottom as text arrives, unless the user scrolled up.
import type { ComponentChildren } from "preact";
import { useLayoutEffect, useMemo, useRef } from "preact/hooks";
import { useExpanded } from "../../bridge/view-state";

const FOLD_LINES = 12;

interface Props {
  text: string;
  expandKey: string;
  /** Folded, show the last lines instead of the first. */
  tail?: boolean;
  follow?: boolean;
  /** A status line under the output (exit code, footer). */
  status?: ComponentChildren;
  /** "Show all" opens the whole output elsewhere (an editor) instead of unfolding it here. */
  onShowAll?: () => void;
}

export function OutputPre({ text, expandKey, tail = false, follow = false, status, onShowAll }: Props) {
  const [all, setAll] = useExpanded(expandKey, false);
  const lines = useMemo(() => text.replace(/\n$/, "").split("\n"), [text]);
  const long = lines.length > FOLD_LINES;
  const shown = long && !all ? (tail ? lines.slice(-FOLD_LINES) : lines.slice(0, FOLD_LINES)).join("\n") : text;
  const pre = useRef<HTMLPreElement>(null);
  const pinned = useRef(true);
  useLayoutEffect(() => {
    if (follow && pinned.current && pre.current) pre.current.scrollTop = pre.current.scrollHeight;
  });
  const onScroll = () => {
    const el = pre.current;
    if (el) pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 4;
  };
  return (
    <div class="output">
      <pre class="output-text" ref={pre} onScroll={follow ? onScroll : undefined}>
        {shown}
      </pre>
      {(long || status) && (
        <div class="output-foot">
          {status}
          {long && onShowAll && (
            <button type="button" class="link-button" data-testid="show-all-output" title="Open the whole output in an editor" onClick={onShowAll}>
              Show all
            </button>
          )}
          {long && !onShowAll && (
            <button type="button" class="link-button" aria-expanded={all} onClick={() => setAll(!all)}>
              {all ? "Show less" : `Show all ${lines.length} lines`}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
