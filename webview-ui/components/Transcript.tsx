// The conversation, windowed both ways (lib/windowing.ts): only the items around the viewport
// are mounted, those above and below are two spacers sized from the items' measured heights, so
// a 5,000-message chat keeps a small DOM and a flat heap. It follows new content only while the
// user is at the bottom; scrolled up, a "Jump to latest" button brings them back.
import { useEffect, useLayoutEffect, useReducer, useRef, useState } from "preact/hooks";
import type { TranscriptItem } from "../../common/panel-state/types";
import { persistScroll, viewStore } from "../bridge/view-state";
import { ItemHeights } from "../lib/item-heights";
import { indexAt, isNearBottom, rangeCovering, spacers, tailWindow, windowFor, type Range } from "../lib/windowing";
import { handleMarkdownClick } from "../markdown/link-and-code-clicks";
import { Icon, Spinner } from "./icons";
import { TranscriptItemView } from "./items/TranscriptItemView";

interface Props {
  items: TranscriptItem[];
  sessionId: string | null;
  running: boolean;
  loading: boolean;
}

/** Viewports mounted beyond the visible one, each side. */
const OVERSCAN = 1.5;
/** At the bottom, the mounted tail may grow to this many viewports before its top is trimmed. */
const TAIL_MAX = 5;
/**
 * The window moves once the view comes this close (in viewports) to its edge. Moving it on every
 * frame (a margin near OVERSCAN) mounts less per frame but fights the browser's scroll anchoring:
 * a fast scroll up can stall.
 */
const MARGIN = 0.5;
/** The scroll position is saved this long after scrolling starts (vscode.setState is not free). */
const SAVE_DELAY_MS = 200;

export function Transcript({ items, sessionId, running, loading }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  /** Measured heights and their prefix sums, kept across renders; cleared with the session (local ids repeat across sessions). */
  const heights = useRef(new ItemHeights());
  const saved = useRef(viewStore.get().scroll);
  const atBottom = useRef(saved.current?.sessionId === sessionId ? saved.current.atBottom : true);
  const range = useRef<Range>({ start: -1, end: -1 });
  const session = useRef<string | null | undefined>(undefined);
  /** After the next render, scroll so this item's top is `top` px below the view's top. */
  const anchor = useRef<{ id: string; top: number } | undefined>(undefined);
  const toEnd = useRef(false);
  const layout = useRef({ gap: 12, padTop: 14, viewport: 600 });
  const offsets = useRef<Float64Array>(new Float64Array(1));
  /** A scroll position is waiting to be saved (once per burst of scrolling, not per frame). */
  const saveScheduled = useRef(false);
  const measured = useRef("");
  const lastJump = useRef("");
  const checkPending = useRef(false);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const [showJump, setShowJump] = useState(false);
  /** Measures mounted items as they lay out (no forced layout); their heights size the spacers. Made on the first layout. */
  const sizes = useRef<ResizeObserver | undefined>(undefined);
  const reading = useRef(false);
  const watched = useRef(new Set<HTMLElement>());
  const restoring = useRef(false);

  // The window, decided during render so a new item costs one render, not two.
  if (session.current !== sessionId) {
    if (session.current !== undefined) atBottom.current = true;
    session.current = sessionId;
    heights.current.clear();
    range.current = { start: -1, end: -1 };
  }
  const { gap, viewport } = layout.current;
  heights.current.setGap(gap);
  heights.current.sync(items);
  offsets.current = heights.current.offsets();
  range.current = nextRange(range.current, offsets.current, items, atBottom.current, viewport, () => {
    // First render of a rebuilt panel that was scrolled up: back to the item that was on top.
    const restore = saved.current;
    saved.current = undefined;
    if (!restore || restore.sessionId !== sessionId || restore.atBottom || !restore.anchorId) return undefined;
    const at = items.findIndex((item) => item.id === restore.anchorId);
    if (at < 0) return undefined;
    anchor.current = { id: restore.anchorId, top: restore.anchorTop ?? 0 };
    restoring.current = true;
    return rangeCovering(offsets.current, offsets.current[at] - OVERSCAN * viewport, offsets.current[at] + (1 + OVERSCAN) * viewport);
  });
  const { start, end } = range.current;
  const shown = items.slice(start, end);
  const space = spacers(offsets.current, range.current, gap);
  const last = items[items.length - 1];

  // Following the stream costs no script: the bottom anchor is the only element the browser's
  // scroll anchoring may pick (transcript.css), so while it is in view the view stays pinned
  // to it as content grows above it, and once the user scrolls up nothing moves. Script
  // scrolls on jumps (another session, a newly sent prompt, "Jump to latest") and to keep the
  // item the user reads in place when the window moves.
  const jumpKey = `${sessionId}|${lastUserId(items)}`;
  useLayoutEffect(() => {
    const el = scroller.current;
    const box = content.current;
    if (!el || !box) return;
    if (!measured.current) {
      measured.current = "yes";
      measureLayout(el, box, layout.current);
      heights.current.setGap(layout.current.gap);
    }
    // Newly mounted items: sized for layout from what was measured before (content-visibility
    // skips laying them out until near the view), and watched for their real height.
    sizes.current ??= new ResizeObserver((entries) => {
      for (const entry of entries) {
        const node = entry.target as HTMLElement;
        const id = node.dataset.itemId;
        const height = entry.borderBoxSize?.[0]?.blockSize ?? node.getBoundingClientRect().height;
        // A skipped (content-visibility) item reports its placeholder: the known height or the estimate.
        if (id && height > 0) heights.current.set(id, height);
      }
    });
    for (const node of watched.current) {
      if (node.isConnected) continue;
      sizes.current.unobserve(node);
      watched.current.delete(node);
    }
    for (const node of box.querySelectorAll<HTMLElement>(":scope > .item:not([data-watched])")) {
      node.dataset.watched = "";
      const known = node.dataset.itemId ? heights.current.get(node.dataset.itemId) : undefined;
      if (known) node.style.containIntrinsicSize = `auto ${known}px`;
      sizes.current.observe(node);
      watched.current.add(node);
    }
    if (anchor.current) {
      const { id, top } = anchor.current;
      anchor.current = undefined;
      // While reading (scrolled up) the browser's own scroll anchoring keeps the item in view in
      // place; script corrects only a restored position.
      if (reading.current && !restoring.current) return;
      restoring.current = false;
      const node = box.querySelector<HTMLElement>(`:scope > [data-item-id="${CSS.escape(id)}"]`);
      if (node) {
        const delta = node.getBoundingClientRect().top - el.getBoundingClientRect().top - top;
        if (Math.abs(delta) >= 1) el.scrollTop += delta;
      }
      lastJump.current = jumpKey;
      return;
    }
    if (toEnd.current || jumpKey !== lastJump.current) {
      toEnd.current = false;
      lastJump.current = jumpKey;
      atBottom.current = true;
      setShowJump(false);
      setReading(el, false);
      el.scrollTop = el.scrollHeight;
    }
  });

  useEffect(() => () => sizes.current?.disconnect(), []);

  // Scroll anchoring does nothing while the view is at offset 0 (a short chat that starts to
  // overflow). A resize observer covers that: it runs after layout, so reading sizes forces nothing.
  useEffect(() => {
    const el = scroller.current;
    if (!el || !content.current) return;
    const ro = new ResizeObserver(() => {
      layout.current.viewport = el.clientHeight || layout.current.viewport;
      if (atBottom.current && el.scrollHeight - el.scrollTop - el.clientHeight > 1) el.scrollTop = el.scrollHeight;
    });
    ro.observe(content.current);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  /** Once per frame while scrolling: move the window when the view nears its edge. */
  const checkWindow = () => {
    checkPending.current = false;
    const el = scroller.current;
    const box = content.current;
    if (!el || !box) return;
    const n = items.length;
    const view = el.clientHeight || layout.current.viewport;
    layout.current.viewport = view;
    const top = el.scrollTop - layout.current.padTop;
    scheduleSave();
    // Heights measured since the last render count (recomputed from the first that changed).
    if (offsets.current.length - 1 === n) offsets.current = heights.current.offsets();
    const current = range.current;
    const next = atBottom.current ? current : windowFor(offsets.current, current, top, view, { overscan: OVERSCAN, margin: MARGIN });
    if (atBottom.current && current.end === n) return;
    if (next.start === current.start && next.end === current.end && !atBottom.current) return;
    const first = firstVisible(el, box, offsets.current, top, current.start);
    if (first) anchor.current = first;
    if (!atBottom.current) range.current = next;
    rerender(0);
  };

  /** Where the view is, saved a moment after scrolling (finding the item on top reads layout: not per frame). */
  const scheduleSave = () => {
    if (saveScheduled.current) return;
    saveScheduled.current = true;
    setTimeout(() => {
      saveScheduled.current = false;
      const el = scroller.current;
      const box = content.current;
      if (!el || !box) return;
      const first = firstVisible(el, box, offsets.current, el.scrollTop - layout.current.padTop, range.current.start);
      persistScroll({ sessionId, top: el.scrollTop, atBottom: atBottom.current, anchorId: first?.id, anchorTop: first?.top });
    }, SAVE_DELAY_MS);
  };

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    atBottom.current = isNearBottom(el.scrollTop, el.scrollHeight, el.clientHeight);
    setShowJump(!atBottom.current);
    setReading(el, !atBottom.current);
    if (!checkPending.current) {
      checkPending.current = true;
      requestAnimationFrame(checkWindow);
    }
  };

  /** Scrolled up, the browser anchors on the items (it keeps the one being read in place as the window moves); at the bottom, only on the bottom anchor. */
  const setReading = (el: HTMLElement, on: boolean) => {
    if (reading.current === on) return;
    reading.current = on;
    el.classList.toggle("reading", on);
  };

  const jumpToLatest = () => {
    atBottom.current = true;
    if (scroller.current) setReading(scroller.current, false);
    toEnd.current = true;
    anchor.current = undefined;
    range.current = tailWindow(offsets.current, (1 + OVERSCAN) * layout.current.viewport);
    setShowJump(false);
    rerender(0);
    scroller.current?.focus({ preventScroll: true });
  };

  const working = running && !(last && (last.kind === "agent" || last.kind === "thought"));
  return (
    <div class="transcript-wrap">
      <div class="transcript" ref={scroller} onScroll={onScroll} tabIndex={-1} role="log" aria-label="Conversation" aria-live="off">
        <div class="transcript-content" ref={content} onClick={handleMarkdownClick}>
          {space.above > 0 && <div class="spacer-above" style={{ height: `${space.above}px` }} aria-hidden="true" />}
          {loading && (
            <div class="loading-row muted">
              <Spinner /> Loading session…
            </div>
          )}
          {items.length === 0 && !loading && <EmptyState />}
          {shown.map((item) => (
            <TranscriptItemView key={item.id} item={item} streaming={running && item === last} />
          ))}
          {space.below > 0 && <div class="spacer-below" style={{ height: `${space.below}px` }} aria-hidden="true" />}
          {working && (
            <div class="working muted" aria-hidden="true">
              <Spinner /> Working…
            </div>
          )}
        </div>
        <div class="bottom-anchor" aria-hidden="true" />
      </div>
      {showJump && items.length > 0 && (
        <button type="button" class="jump-latest" data-testid="jump-latest" onClick={jumpToLatest} title="Jump to latest" aria-label="Jump to the latest message">
          <Icon name="chevronDown" /> Latest
        </button>
      )}
    </div>
  );
}

/**
 * The mounted range for this render: at the bottom, the tail (kept growing with new items up to
 * TAIL_MAX viewports, so streaming does not churn the top); scrolled up, unchanged (items arriving
 * below go into the lower spacer and nothing under the reader moves).
 */
function nextRange(current: Range, offsets: Float64Array, items: TranscriptItem[], atBottom: boolean, viewport: number, restore: () => Range | undefined): Range {
  const n = items.length;
  const tail = () => tailWindow(offsets, (1 + OVERSCAN) * viewport);
  if (current.start < 0) return restore() ?? tail();
  if (current.start >= n || current.end > n) return tail();
  if (!atBottom) return current;
  const fresh = tail();
  if (current.start <= fresh.start && offsets[n] - offsets[current.start] <= TAIL_MAX * viewport) return { start: current.start, end: n };
  return fresh;
}

function measureLayout(el: HTMLElement, box: HTMLElement, into: { gap: number; padTop: number; viewport: number }): void {
  const style = getComputedStyle(box);
  into.gap = parseFloat(style.rowGap) || 0;
  into.padTop = parseFloat(style.paddingTop) || 0;
  into.viewport = el.clientHeight || into.viewport;
}

/**
 * The first mounted item whose bottom is below the view's top, and where its top is. Starts at
 * the item the offsets put there and steps to its neighbours, so it reads the layout of a few
 * items, not of every mounted one.
 */
function firstVisible(el: HTMLElement, box: HTMLElement, offsets: Float64Array, top: number, mountedFrom: number): { id: string; top: number } | undefined {
  const items = box.querySelectorAll<HTMLElement>(":scope > .item");
  if (items.length === 0) return undefined;
  const viewTop = el.getBoundingClientRect().top;
  const guess = indexAt(offsets, Math.max(0, top));
  // The mounted items are a contiguous run starting at `mountedFrom`.
  let at = Math.min(items.length - 1, Math.max(0, guess - mountedFrom));
  while (at > 0 && items[at - 1].getBoundingClientRect().bottom > viewTop) at--;
  for (; at < items.length; at++) {
    const node = items[at];
    const rect = node.getBoundingClientRect();
    if (rect.bottom > viewTop && node.dataset.itemId) return { id: node.dataset.itemId, top: rect.top - viewTop };
  }
  return undefined;
}

/** The newest prompt's id, found from the end (a new prompt is last when it arrives). */
function lastUserId(items: TranscriptItem[]): string {
  for (let i = items.length - 1; i >= 0; i--) if (items[i].kind === "user") return items[i].id;
  return "";
}

function EmptyState() {
  return (
    <div class="empty">
      <div class="empty-mark">
        <Icon name="sparkle" />
      </div>
      <div class="empty-title">What can Hermes do for you?</div>
      <div class="empty-hints muted">
        Ask about this workspace, or ask for a change.
        <br />
        <kbd>/</kbd> for commands · <kbd>@</kbd> to mention a file · paste an image
      </div>
    </div>
  );
}
