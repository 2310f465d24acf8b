// The transcript's height bookkeeping: each item's measured height (or the estimate until it
// has been seen) and the prefix sums the windowing searches (lib/windowing.ts). Kept across
// renders and updated in place: a streamed chunk or a scroll step must not walk a 5,000-item
// chat. Items only ever arrive at the end (the reducer appends; a new session starts over), so
// a longer list whose known ids are unchanged is an append; anything else is a rebuild.
import { ESTIMATED_HEIGHT } from "./windowing";

export class ItemHeights {
  private ids: string[] = [];
  private readonly position = new Map<string, number>();
  /** 0: not measured yet (the estimate stands in). */
  private heights = new Float64Array(64);
  private sums = new Float64Array(65);
  /** Offsets below this index are up to date. */
  private validUpTo = 0;

  constructor(
    private gap = 0,
    private readonly estimate = ESTIMATED_HEIGHT,
  ) {}

  get length(): number {
    return this.ids.length;
  }

  /** Follows the transcript's items: O(new items) for an append, a rebuild (heights kept by id) otherwise. */
  sync(items: readonly { id: string }[]): void {
    const known = this.ids.length;
    const appended =
      items.length >= known && (known === 0 || (items[0].id === this.ids[0] && items[known - 1].id === this.ids[known - 1]));
    if (appended && items.length === known) return;
    if (!appended) {
      const measured = new Map<string, number>();
      for (let i = 0; i < known; i++) if (this.heights[i] > 0) measured.set(this.ids[i], this.heights[i]);
      this.ids = [];
      this.position.clear();
      this.validUpTo = 0;
      this.reserve(items.length);
      this.heights.fill(0);
      for (const item of items) this.push(item.id, measured.get(item.id) ?? 0);
      return;
    }
    this.reserve(items.length);
    for (let i = known; i < items.length; i++) this.push(items[i].id, 0);
  }

  /** Records a measured height; true when it changed. Unknown ids are ignored (an item of a session left behind). */
  set(id: string, height: number): boolean {
    const at = this.position.get(id);
    if (at === undefined || this.heights[at] === height) return false;
    this.heights[at] = height;
    this.validUpTo = Math.min(this.validUpTo, at);
    return true;
  }

  /** The measured height of an item, if it has one. */
  get(id: string): number | undefined {
    const at = this.position.get(id);
    return at === undefined || this.heights[at] === 0 ? undefined : this.heights[at];
  }

  setGap(gap: number): void {
    if (gap === this.gap) return;
    this.gap = gap;
    this.validUpTo = 0;
  }

  clear(): void {
    this.ids = [];
    this.position.clear();
    this.validUpTo = 0;
  }

  /**
   * `offsets[i]`: where item i starts, relative to the first item's top (each item's height plus
   * the gap after it); `offsets[length]`: the total. Recomputed only from the first change. The
   * array is a view of an internal buffer: read it, do not keep it across changes.
   */
  offsets(): Float64Array {
    const n = this.ids.length;
    for (let i = this.validUpTo; i < n; i++) this.sums[i + 1] = this.sums[i] + (this.heights[i] || this.estimate) + this.gap;
    this.validUpTo = n;
    return this.sums.subarray(0, n + 1);
  }

  private push(id: string, height: number): void {
    const at = this.ids.length;
    this.ids.push(id);
    this.position.set(id, at);
    this.heights[at] = height;
  }

  /** Room for `n` items; the offsets after the old end become stale. */
  private reserve(n: number): void {
    this.validUpTo = Math.min(this.validUpTo, this.ids.length);
    if (n <= this.heights.length) return;
    let size = this.heights.length;
    while (size < n) size *= 2;
    const heights = new Float64Array(size);
    heights.set(this.heights.subarray(0, this.ids.length));
    const sums = new Float64Array(size + 1);
    sums.set(this.sums.subarray(0, this.ids.length + 1));
    this.heights = heights;
    this.sums = sums;
  }
}
