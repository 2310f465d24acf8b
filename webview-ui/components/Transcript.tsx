// The conversation. Long sessions are windowed: only the tail (lib/windowing.ts) is in the
// DOM, and a sentinel at the top grows the window as the user scrolls up (keeping what they
// see in place). It follows new content only while the user is at the bottom.
import { useEffect, useLayoutEffect, useReducer, useRef } from "preact/hooks";
import type { TranscriptItem } from "../state/types";
import { persistScroll, viewStore } from "../bridge/view-state";
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
  const sentinel = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const observer = useRef<IntersectionObserver | undefined>(undefined);
  const saved = useRef(viewStore.get().scroll);
  const atBottom = useRef(saved.current?.sessionId === sessionId ? saved.current.atBottom : true);
  const start = useRef(-1);
  const session = useRef<string | null | undefined>(undefined);
  /** scrollHeight before older items were added above, to keep the reader's place. */
  const growAnchor = useRef<number | undefined>(undefined);
  const lastJump = useRef("");
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

  // Following the stream costs no script: the bottom anchor is the only element the browser's
  // scroll anchoring may pick (transcript.css), so while it is in view the view stays pinned
  // to it as content grows above it, and once the user scrolls up nothing moves. Script
  // scrolls only on jumps: another session, a newly sent prompt, or older items loaded above.
  const jumpKey = `${sessionId}|${lastUserId(items)}`;
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (growAnchor.current !== undefined) {
      el.scrollTop += el.scrollHeight - growAnchor.current;
      growAnchor.current = undefined;
      // Re-observing makes the observer report again if the sentinel is still in view.
      if (observer.current && sentinel.current) {
        observer.current.unobserve(sentinel.current);
        observer.current.observe(sentinel.current);
      }
      return;
    }
    if (jumpKey === lastJump.current) return;
    const restoring = lastJump.current === "" && saved.current?.sessionId === sessionId && saved.current.atBottom === false;
    lastJump.current = jumpKey;
    if (restoring) el.scrollTop = saved.current?.top ?? 0; // the panel was rebuilt: back to where the user was
    else {
      atBottom.current = true;
      el.scrollTop = el.scrollHeight;
    }
  });

  // Scroll anchoring does nothing while the view is at offset 0 (a short chat that starts to
  // overflow, or items whose size content-visibility only learns after the jump). A resize
  // observer covers that: it runs after layout, so reading the sizes here forces nothing.
  useEffect(() => {
    const el = scroller.current;
    if (!el || !content.current) return;
    const ro = new ResizeObserver(() => {
      if (atBottom.current && el.scrollHeight - el.scrollTop - el.clientHeight > 1) el.scrollTop = el.scrollHeight;
    });
    ro.observe(content.current);
    return () => ro.disconnect();
  }, []);

  useEffect(() => {
    if (!scroller.current || !sentinel.current) return;
    const io = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting) || start.current <= 0 || !scroller.current) return;
        growAnchor.current = scroller.current.scrollHeight;
        start.current = growWindowStart(start.current);
        rerender(0);
      },
      { root: scroller.current, rootMargin: "800px 0px 0px 0px" },
    );
    io.observe(sentinel.current);
    observer.current = io;
    return () => io.disconnect();
  }, []);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    atBottom.current = isNearBottom(el.scrollTop, el.scrollHeight, el.clientHeight);
    persistScroll({ sessionId, top: el.scrollTop, atBottom: atBottom.current });
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
      <div class="bottom-anchor" aria-hidden="true" />
    </div>
  );
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
