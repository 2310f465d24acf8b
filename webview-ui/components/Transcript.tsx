// The conversation. Long sessions are windowed: only the tail (lib/windowing.ts) is in the
// DOM, and a sentinel at the top grows the window as the user scrolls up (keeping what they
// see in place). It follows new content only while the user is at the bottom.
import { useEffect, useLayoutEffect, useReducer, useRef } from "preact/hooks";
import type { TranscriptItem } from "../state/types";
import { updateView, viewStore } from "../bridge/view-state";
import { growWindowStart, isNearBottom, nextWindowStart, WINDOW_SIZE } from "../lib/windowing";
import { handleMarkdownClick } from "../markdown/link-and-code-clicks";
import { Icon, Spinner } from "./icons";
import { TranscriptItemView } from "./items/TranscriptItemView";

interface Props {
  items: TranscriptItem[];
  sessionId: string | null;
  running: boolean;
  loading: boolean;
}

export function Transcript({ items, sessionId, running, loading }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  const saved = viewStore.get().scroll;
  const atBottom = useRef(saved?.sessionId === sessionId ? saved.atBottom : true);
  const start = useRef(-1);
  const session = useRef<string | null | undefined>(undefined);
  const anchor = useRef<number | undefined>(undefined);
  const [, rerender] = useReducer((n: number) => n + 1, 0);

  // Window start, decided during render so a new item costs one render, not two.
  if (session.current !== sessionId || start.current < 0) {
    if (session.current !== undefined && session.current !== sessionId) atBottom.current = true;
    session.current = sessionId;
    start.current = Math.max(0, items.length - WINDOW_SIZE);
  } else {
    start.current = nextWindowStart({ length: items.length, start: start.current, atBottom: atBottom.current });
  }
  const shown = items.slice(start.current);
  const last = items[items.length - 1];

  const stickToBottom = () => {
    const el = scroller.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  };

  // After each render: keep the reader's place when older items were added above, else follow.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (anchor.current !== undefined) {
      el.scrollTop += el.scrollHeight - anchor.current;
      anchor.current = undefined;
      // Re-observing makes the observer report again if the sentinel is still in view.
      const io = observer.current;
      if (io && sentinel.current) {
        io.unobserve(sentinel.current);
        io.observe(sentinel.current);
      }
    } else stickToBottom();
  });

  // Restore the saved scroll position once, when the panel is rebuilt.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && saved && saved.sessionId === sessionId && !saved.atBottom) el.scrollTop = saved.top;
  }, []);

  // Content that grows on its own (a card expanded, fonts loaded) keeps the bottom in view.
  useEffect(() => {
    if (!content.current) return;
    const ro = new ResizeObserver(() => stickToBottom());
    ro.observe(content.current);
    return () => ro.disconnect();
  }, []);

  const observer = useRef<IntersectionObserver | undefined>(undefined);
  useEffect(() => {
    if (!scroller.current || !sentinel.current) return;
    const io = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting) || start.current <= 0 || !scroller.current) return;
        anchor.current = scroller.current.scrollHeight;
        start.current = growWindowStart(start.current);
        rerender(0);
      },
      { root: scroller.current, rootMargin: "800px 0px 0px 0px" },
    );
    io.observe(sentinel.current);
    observer.current = io;
    return () => io.disconnect();
  }, []);

  const scrollFrame = useRef(0);
  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    atBottom.current = isNearBottom(el.scrollTop, el.scrollHeight, el.clientHeight);
    if (scrollFrame.current) return;
    scrollFrame.current = requestAnimationFrame(() => {
      scrollFrame.current = 0;
      updateView(() => ({ scroll: { sessionId, top: el.scrollTop, atBottom: atBottom.current } }));
    });
  };

  const working = running && !(last && (last.kind === "agent" || last.kind === "thought"));
  return (
    <div class="transcript" ref={scroller} onScroll={onScroll} tabIndex={-1}>
      <div class="transcript-content" ref={content} onClick={handleMarkdownClick}>
        <div ref={sentinel} class="sentinel" aria-hidden="true" />
        {start.current > 0 && <div class="older muted">{start.current} earlier messages · scroll up to load</div>}
        {loading && (
          <div class="loading-row muted">
            <Spinner /> Loading session…
          </div>
        )}
        {items.length === 0 && !loading && <EmptyState />}
        {shown.map((item) => (
          <TranscriptItemView key={item.id} item={item} streaming={running && item === last} />
        ))}
        {working && (
          <div class="working muted" aria-hidden="true">
            <Spinner /> Working…
          </div>
        )}
      </div>
    </div>
  );
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
