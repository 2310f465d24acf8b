// Which slice of a long transcript is in the DOM. Windowed both ways: only the items around the
// viewport are mounted; the ones above and below are replaced by two spacers whose heights are
// the items' last measured heights (an estimate for items never shown), so the scrollbar stays
// true and a 5,000-message chat costs what a 50-message one does. Pure: the Transcript
// component measures, scrolls and renders.

/** Height assumed for an item never measured (a short message or a folded tool card). */
export const ESTIMATED_HEIGHT = 72;

export interface Range {
  /** First mounted item. */
  start: number;
  /** One past the last mounted item. */
  end: number;
}

/**
 * Prefix sums of item heights plus the gap after each: `offsets[i]` is where item i starts
 * (relative to the first item's top), `offsets[n]` the total.
 */
export function itemOffsets(heights: readonly (number | undefined)[], gap: number, estimate = ESTIMATED_HEIGHT): Float64Array {
  const offsets = new Float64Array(heights.length + 1);
  for (let i = 0; i < heights.length; i++) offsets[i + 1] = offsets[i] + (heights[i] ?? estimate) + gap;
  return offsets;
}

/** The first item whose bottom is below `y` (binary search over the offsets). */
export function indexAt(offsets: Float64Array, y: number): number {
  const n = offsets.length - 1;
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (offsets[mid + 1] <= y) lo = mid + 1;
    else hi = mid;
  }
  return Math.min(lo, Math.max(0, n));
}

/** The items covering [top, bottom] (pixels from the first item's top), at least one when any exist. */
export function rangeCovering(offsets: Float64Array, top: number, bottom: number): Range {
  const n = offsets.length - 1;
  if (n <= 0) return { start: 0, end: 0 };
  // A view past the end (items shrank since) still mounts the last item.
  const start = Math.min(indexAt(offsets, Math.max(0, top)), n - 1);
  let end = indexAt(offsets, Math.max(top, bottom)) + 1;
  end = Math.min(n, Math.max(end, start + 1));
  return { start, end };
}

/**
 * The range to mount for a viewport at `top` of height `viewport`: what is visible plus
 * `overscan` viewports either side. When the current range still covers the view with `margin`
 * viewports to spare it is kept (a scroll of a few pixels re-renders nothing).
 */
export function windowFor(
  offsets: Float64Array,
  current: Range,
  top: number,
  viewport: number,
  opts: { overscan?: number; margin?: number } = {},
): Range {
  const n = offsets.length - 1;
  const overscan = (opts.overscan ?? 1.5) * viewport;
  const margin = (opts.margin ?? 0.5) * viewport;
  const bottom = top + viewport;
  const valid = current.start >= 0 && current.end <= n && current.start < current.end;
  if (valid) {
    const coversTop = current.start === 0 || offsets[current.start] <= Math.max(0, top - margin);
    const coversBottom = current.end === n || offsets[current.end] >= bottom + margin;
    if (coversTop && coversBottom) return current;
  }
  return rangeCovering(offsets, top - overscan, bottom + overscan);
}

/** The range at the end of the transcript: the last items filling `extent` pixels (the view plus overscan). */
export function tailWindow(offsets: Float64Array, extent: number): Range {
  const n = offsets.length - 1;
  if (n <= 0) return { start: 0, end: 0 };
  const start = indexAt(offsets, Math.max(0, offsets[n] - extent));
  return { start: Math.min(start, n - 1), end: n };
}

/** Spacer heights standing in for the unmounted items above and below (the flex gap after a spacer is one of the items' gaps). */
export function spacers(offsets: Float64Array, range: Range, gap: number): { above: number; below: number } {
  const n = offsets.length - 1;
  const above = range.start > 0 ? Math.max(0, offsets[range.start] - gap) : 0;
  const below = range.end < n ? Math.max(0, offsets[n] - offsets[range.end] - gap) : 0;
  return { above, below };
}

/** True when the scroll position is close enough to the end to keep following new content. */
export function isNearBottom(scrollTop: number, scrollHeight: number, clientHeight: number, slack = 48): boolean {
  return scrollHeight - scrollTop - clientHeight <= slack;
}
