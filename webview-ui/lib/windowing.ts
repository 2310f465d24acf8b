// Which slice of a long transcript is rendered. Only the tail is in the DOM; the window grows
// towards the top as the user scrolls up, and stops following new items while the user reads
// older ones (so nothing shifts under their eyes). Pure: the Transcript component owns the state.

/** Items rendered at first and added each time the user nears the top. */
export const WINDOW_SIZE = 80;
export const WINDOW_STEP = 80;

/**
 * The first rendered index after the transcript changed to `length` items.
 * - a new, shorter transcript (another session) starts over at the tail;
 * - at the bottom the window follows the tail but never shrinks below what the user already
 *   expanded to, as long as that stays within `max` items (a long stream then trims the top);
 * - scrolled up, the start stays put so the items being read do not move.
 */
export function nextWindowStart(opts: { length: number; start: number; atBottom: boolean; size?: number; max?: number }): number {
  const size = opts.size ?? WINDOW_SIZE;
  const max = opts.max ?? size * 4;
  const { length, atBottom } = opts;
  if (opts.start >= length) return Math.max(0, length - size);
  if (!atBottom) return Math.max(0, opts.start);
  const rendered = length - opts.start;
  if (rendered <= max) return Math.max(0, Math.min(opts.start, length - size));
  return Math.max(0, length - size);
}

/** The start after the user scrolled near the top: `step` more older items. */
export function growWindowStart(start: number, step = WINDOW_STEP): number {
  return Math.max(0, start - step);
}

/** True when the scroll position is close enough to the end to keep following new content. */
export function isNearBottom(scrollTop: number, scrollHeight: number, clientHeight: number, slack = 48): boolean {
  return scrollHeight - scrollTop - clientHeight <= slack;
}
