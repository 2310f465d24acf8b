// What a Chromium performance trace says the panel's main thread spent, by kind of work:
// script, style, layout, paint (with prepaint, layerize, commit) and the rest. Uses each
// event's thread time (`tdur`), not its wall time, so a machine busy with other work still
// gets the cost of a frame rather than the time spent waiting for a CPU. Self time: an event
// nested in another (a layout forced by script) counts once, for what it did itself.

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

export interface MainThreadCost {
  script: number;
  style: number;
  layout: number;
  paint: number;
  gc: number;
  other: number;
  total: number;
}

const KIND: Record<string, keyof Omit<MainThreadCost, "total">> = {
  FunctionCall: "script",
  EvaluateScript: "script",
  FireAnimationFrame: "script",
  EventDispatch: "script",
  TimerFire: "script",
  "v8.compile": "script",
  "v8.run": "script",
  RunMicrotasks: "script",
  UpdateLayoutTree: "style",
  ParseAuthorStyleSheet: "style",
  Layout: "layout",
  "IntersectionObserverController::computeIntersections": "layout",
  Paint: "paint",
  PrePaint: "paint",
  Layerize: "paint",
  Commit: "paint",
  UpdateLayer: "paint",
  PaintImage: "paint",
  MinorGC: "gc",
  MajorGC: "gc",
  BlinkGC: "gc",
};

/** Self thread time (ms) on the renderer's main thread, summed by kind of work. */
export function mainThreadCost(traceJson: string): MainThreadCost {
  const events = (JSON.parse(traceJson) as { traceEvents: TraceEvent[] }).traceEvents;
  const main = events.find((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain");
  const cost: MainThreadCost = { script: 0, style: 0, layout: 0, paint: 0, gc: 0, other: 0, total: 0 };
  if (!main) return cost;
  const spans = events
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === "X" && typeof e.dur === "number" && typeof e.tdur === "number")
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  // Open spans, outermost first; each child's thread time comes off its parent's self time.
  const stack: { end: number; kind: keyof Omit<MainThreadCost, "total">; self: number }[] = [];
  const close = (until: number) => {
    while (stack.length > 0 && stack[stack.length - 1].end <= until) {
      const done = stack.pop();
      if (done) cost[done.kind] += Math.max(0, done.self);
    }
  };
  for (const e of spans) {
    close(e.ts);
    const parent = stack[stack.length - 1];
    const thread = (e.tdur ?? 0) / 1000;
    if (parent) parent.self -= thread;
    else cost.total += thread;
    // Unknown events inside a known one are that one's work (e.g. V8 internals inside a FunctionCall).
    const kind = KIND[e.name] ?? parent?.kind ?? "other";
    stack.push({ end: e.ts + (e.dur ?? 0), kind, self: thread });
  }
  close(Number.POSITIVE_INFINITY);
  return cost;
}

/**
 * Main-thread thread time (ms) of each rendered frame: the renderer's top-level tasks grouped by
 * the animation frame they ran in (from one frame's start to the next). Unlike frame intervals,
 * this does not grow when the machine is busy with other work.
 */
export function frameCosts(traceJson: string): number[] {
  const events = (JSON.parse(traceJson) as { traceEvents: TraceEvent[] }).traceEvents;
  const main = events.find((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain");
  if (!main) return [];
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid);
  const starts = onMain.filter((e) => e.name === "AnimationFrame" && e.ph === "b").map((e) => e.ts).sort((a, b) => a - b);
  const tasks = onMain.filter((e) => e.name === "RunTask" && e.ph === "X").sort((a, b) => a.ts - b.ts);
  const costs = new Array<number>(starts.length).fill(0);
  let frame = 0;
  for (const task of tasks) {
    if (task.ts < starts[0]) continue;
    while (frame + 1 < starts.length && starts[frame + 1] <= task.ts) frame++;
    costs[frame] += (task.tdur ?? 0) / 1000;
  }
  return costs;
}
