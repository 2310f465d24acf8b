// The chat panel in headless Chromium (the built dist/webview.js served standalone, see
// panel-page.ts): (1) time to last paint after a snapshot of a 2,000-message session (post →
// content rendered + two animation frames), target <= 1 s; (2) 500 streamed
// agent_message_chunk actions, one per postMessage at model-like pacing: median main-thread
// cost per chunk (message handling + the frame that renders it, with style and layout),
// target <= 2 ms; (3) a 1k- and a 5k-message chat scrolled to the top and back: frame times
// (p95 target <= 20 ms), heap after GC and element counts (windowing keeps them flat), and, from a
// Chromium trace of the same scroll, the main thread's CPU per frame and what it went to.
//   node --import tsx bench/panel.ts      (BENCH_MESSAGES=2000, BENCH_CHUNKS=500, BENCH_RUNS=5, BENCH_CHUNK_MS=15)
import { performance } from "node:perf_hooks";
import { type BenchRow, fmt, intFromEnv, median, percentile, reportRows } from "./lib";
import { longSession, replyChunks, streamingStart } from "./panel-fixtures";
import { ensurePanelBuilt, loadPanel, openPanelPage, type PanelPage, WEBVIEW_JS } from "./panel-page";
import type { ChatState } from "../common/panel-state/types";
import { frameCosts, mainThreadCost, type MainThreadCost } from "./panel-trace";
import { readdirSync, readFileSync, statSync } from "node:fs";
import os from "node:os";

const PAINT_TARGET_MS = 1000;
const CHUNK_TARGET_MS = 2;
const SCROLL_TARGET_MS = 20;

/** In the page: post a snapshot, wait until its last item is in the DOM, then two frames. */
const TIME_SNAPSHOT = `async ({ state, lastId }) => {
  const t0 = performance.now();
  window.postMessage({ type: "snapshot", state }, "*");
  await new Promise((resolve) => {
    const found = () => document.querySelector('[data-item-id="' + CSS.escape(lastId) + '"]');
    if (found()) return resolve();
    const mo = new MutationObserver(() => { if (found()) { mo.disconnect(); resolve(); } });
    mo.observe(document.body, { childList: true, subtree: true });
  });
  const rendered = performance.now() - t0;
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  return { rendered, painted: performance.now() - t0, nodes: document.getElementsByTagName("*").length };
}`;

/** In the page: post each chunk as its own message, `gap` ms apart, then let the last frame land. */
const STREAM = `async ({ chunks, gap }) => {
  const bench = window.__bench;
  bench.handler = []; bench.frames = []; bench.chunksSinceFrame = 0; bench.on = true;
  for (const action of chunks) {
    window.postMessage({ type: "actions", actions: [action] }, "*");
    await new Promise((r) => setTimeout(r, gap));
  }
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  bench.on = false;
  const text = document.querySelectorAll('[data-testid="msg-agent"]');
  const scroller = document.querySelector(".transcript");
  const gapBelow = scroller ? scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight : -1;
  return { handler: bench.handler, frames: bench.frames, lastLength: text[text.length - 1]?.textContent.length ?? 0, gapBelow };
}`;

/**
 * In the page: from the bottom of the loaded chat, scroll to the top `step` px per animation
 * frame (a fast wheel), then back down; frame times are the gaps between animation frames.
 * Counts elements along the way (the windowing keeps them bounded both ways).
 */
const SCROLL = `async ({ step, limit }) => {
  const el = document.querySelector(".transcript");
  const frames = [];
  let maxElements = 0;
  let last = performance.now();
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => { const now = performance.now(); frames.push(now - last); last = now; resolve(); }));
  await frame(); frames.length = 0; last = performance.now();
  for (const direction of [-1, 1]) {
    for (let guard = 0; guard < limit; guard++) {
      const before = el.scrollTop;
      el.scrollTop = before + direction * step;
      await frame();
      if (frames.length % 10 === 0) maxElements = Math.max(maxElements, document.getElementsByTagName("*").length);
      if (el.scrollTop === before) break;
    }
  }
  return { frames, maxElements, atTop: document.querySelector("[data-testid=msg-user]") !== null, elements: document.getElementsByTagName("*").length };
}`;

async function main(): Promise<void> {
  ensurePanelBuilt();
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const messages = intFromEnv("BENCH_MESSAGES", 2000);
  const chunkCount = intFromEnv("BENCH_CHUNKS", 500);
  const runs = intFromEnv("BENCH_RUNS", 5);
  const gap = intFromEnv("BENCH_CHUNK_MS", 15);

  const built = performance.now();
  const session = longSession(messages);
  const lastId = session.items[session.items.length - 1].id;
  const kinds = session.items.reduce<Record<string, number>>((n, item) => ({ ...n, [item.kind]: (n[item.kind] ?? 0) + 1 }), {});
  const bytes = JSON.stringify(session).length;
  out(`session: ${session.items.length} items (${Object.entries(kinds).map(([k, v]) => `${v} ${k}`).join(", ")}), ${fmt(bytes / 1024, 0)} KB of state, built with the reducer in ${fmt(performance.now() - built)} ms`);
  out(`bundle: dist/webview.js ${fmt(statSync(WEBVIEW_JS).size / 1024, 0)} KB`);

  const panel = await openPanelPage();
  try {
    // (1) Time to last paint, each run in a freshly loaded panel (as when the webview is rebuilt).
    const paints: number[] = [];
    let nodes = 0;
    for (let run = 0; run < runs; run++) {
      await loadPanel(panel.page, panel.url);
      const result = await panel.page.evaluate<{ rendered: number; painted: number; nodes: number }>(`(${TIME_SNAPSHOT})(${JSON.stringify({ state: session, lastId })})`);
      paints.push(result.painted);
      nodes = result.nodes;
    }
    const paint = median(paints);
    out(`snapshot of ${session.items.length} messages → last paint: median ${fmt(paint)} ms, max ${fmt(Math.max(...paints))} ms (runs: ${paints.map((v) => fmt(v)).join(", ")}; ${nodes} DOM elements) (target <= ${PAINT_TARGET_MS} ms)`);

    // (2) Streaming: chunks into a running turn of a short session.
    await loadPanel(panel.page, panel.url);
    const start = streamingStart();
    await panel.page.evaluate(`(${TIME_SNAPSHOT})(${JSON.stringify({ state: start, lastId: start.items[start.items.length - 1].id })})`);
    const cdp = await panel.page.context().newCDPSession(panel.page);
    await cdp.send("Performance.enable");
    const before = await taskSeconds(cdp);
    const chunks = replyChunks(chunkCount);
    const stream = await panel.page.evaluate<{
      handler: number[];
      frames: { ms: number; js: number; chunks: number; ts: number }[];
      lastLength: number;
      gapBelow: number;
    }>(`(${STREAM})(${JSON.stringify({ chunks, gap })})`);
    const after = await taskSeconds(cdp);
    // One animation frame may run several callbacks (the panel's flush and others); merge them.
    const byFrame = new Map<number, { ms: number; js: number; chunks: number }>();
    for (const f of stream.frames) {
      const merged = byFrame.get(f.ts) ?? { ms: 0, js: 0, chunks: 0 };
      byFrame.set(f.ts, { ms: merged.ms + f.ms, js: merged.js + f.js, chunks: merged.chunks + f.chunks });
    }
    // Each chunk costs its message handling plus its share of the frame that rendered it.
    const perChunk: number[] = [];
    let h = 0;
    for (const frame of byFrame.values()) {
      for (let i = 0; i < frame.chunks; i++) perChunk.push((stream.handler[h++] ?? 0) + frame.ms / frame.chunks);
    }
    const renderFrames = [...byFrame.values()].filter((f) => f.chunks > 0);
    const chunkMedian = median(perChunk);
    out(`streaming ${chunkCount} chunks (${gap} ms apart, reply grew to ${stream.lastLength} chars) in ${renderFrames.length} rendered frames; view kept at the bottom: ${stream.gapBelow >= 0 && stream.gapBelow <= 2 ? "yes" : `no (${fmt(stream.gapBelow)} px below)`}`);
    out(`  per chunk: median ${fmt(chunkMedian, 2)} ms, p90 ${fmt(percentile(perChunk, 90), 2)} ms, max ${fmt(Math.max(...perChunk), 2)} ms (target <= ${CHUNK_TARGET_MS} ms)`);
    out(`  message handler: median ${fmt(median(stream.handler), 3)} ms; render frame (reduce + render + style/layout): median ${fmt(median(renderFrames.map((f) => f.ms)), 2)} ms, p90 ${fmt(percentile(renderFrames.map((f) => f.ms), 90), 2)} ms, of which script median ${fmt(median(renderFrames.map((f) => f.js)), 2)} ms`);
    out(`  all main-thread tasks (CDP TaskDuration, includes paint, GC and the posting loop): ${fmt(((after - before) * 1000) / chunkCount, 2)} ms per chunk`);
    // (3) Long chats: scroll a 1k and a 5k-message chat from the bottom to the top and back.
    const scrollRows: {
      n: number;
      p95: number;
      max: number;
      heapMB: number;
      elements: number;
      maxElements: number;
      busy: number;
      cpu: number;
      frames: number;
      traced: { p50: number; p95: number; frames: number; cost: MainThreadCost };
    }[] = [];
    const step = intFromEnv("BENCH_SCROLL_STEP", 400);
    const tracedFrames = intFromEnv("BENCH_TRACE_FRAMES", 600);
    for (const n of [intFromEnv("BENCH_SCROLL_SMALL", 1000), intFromEnv("BENCH_SCROLL_LARGE", 5000)]) {
      const chat = longSession(n);
      await loadPanel(panel.page, panel.url);
      await panel.page.evaluate(`(${TIME_SNAPSHOT})(${JSON.stringify({ state: chat, lastId: chat.items[chat.items.length - 1].id })})`);
      const scrollCdp = await panel.page.context().newCDPSession(panel.page);
      await scrollCdp.send("Performance.enable");
      const busyBefore = await taskSeconds(scrollCdp);
      const cpuBefore = browserCpuMs();
      const scrolled = await panel.page.evaluate<{ frames: number[]; maxElements: number; elements: number }>(`(${SCROLL})({ step: ${step}, limit: 100000 })`);
      const busyPerFrame = ((await taskSeconds(scrollCdp)) - busyBefore) * 1000 / Math.max(1, scrolled.frames.length);
      const cpuPerFrame = (browserCpuMs() - cpuBefore) / Math.max(1, scrolled.frames.length);
      await scrollCdp.detach();
      const heap = await heapMB(panel.page);
      const traced = await tracedScroll(panel, chat, step, tracedFrames);
      scrollRows.push({ n: chat.items.length, p95: percentile(scrolled.frames, 95), max: Math.max(...scrolled.frames), heapMB: heap, elements: scrolled.elements, maxElements: scrolled.maxElements, busy: busyPerFrame, cpu: cpuPerFrame, frames: scrolled.frames.length, traced });
    }
    for (const row of scrollRows) {
      out(`chat of ${row.n} messages, scrolled to the top and back: scroll p95 ${fmt(row.p95)} ms, max ${fmt(row.max)} ms per frame (${row.frames} frames; main thread busy ${fmt(row.busy, 1)} ms per frame; Chromium CPU ${fmt(row.cpu, 1)} ms per frame, all its processes); heap ${fmt(row.heapMB, 1)} MB after GC; ${row.elements} elements at the end, at most ${row.maxElements} while scrolling`);
      const { cost, frames } = row.traced;
      const per = (ms: number) => fmt(ms / Math.max(1, frames), 2);
      out(
        `  traced (${frames} frames up and back, thread time, not slowed by other work): main-thread CPU per frame p50 ${fmt(row.traced.p50, 1)} ms, p95 ${fmt(row.traced.p95, 1)} ms; ` +
          `per frame: script ${per(cost.script)}, style ${per(cost.style)}, layout ${per(cost.layout)}, paint ${per(cost.paint)}, gc ${per(cost.gc)}, other ${per(cost.other)} ms`,
      );
    }
    const [small, large] = scrollRows;
    // Frame times are wall-clock: on a machine shared with other work they measure that work too.
    out(`(load average while measuring: ${os.loadavg().map((v) => fmt(v, 1)).join(" / ")} on ${os.cpus().length} CPUs)`);
    out(`heap at ${small.n} vs ${large.n} messages: ${fmt(small.heapMB, 1)} MB vs ${fmt(large.heapMB, 1)} MB (the state itself grows with the chat; the DOM does not)`);

    const violations = await panel.page.evaluate<string[]>("window.__cspViolations");
    out(`CSP violations: ${violations.length}${violations.length ? ` (${[...new Set(violations)].join("; ")})` : ""}`);

    const rows: BenchRow[] = [
      { metric: `panel: snapshot of ${session.items.length} messages → last paint`, value: `${fmt(paint)} ms`, target: `<= ${PAINT_TARGET_MS} ms`, ok: paint <= PAINT_TARGET_MS },
      { metric: `panel: main-thread cost per streamed chunk (median of ${chunkCount})`, value: `${fmt(chunkMedian, 2)} ms`, target: `<= ${CHUNK_TARGET_MS} ms`, ok: chunkMedian <= CHUNK_TARGET_MS },
      { metric: `panel: scroll p95 frame, ${large.n}-message chat`, value: `${fmt(large.p95)} ms`, target: `<= ${SCROLL_TARGET_MS} ms`, ok: large.p95 <= SCROLL_TARGET_MS },
      { metric: `panel: Chromium CPU per scroll frame, ${large.n}-message chat`, value: `${fmt(large.cpu, 1)} ms`, target: `<= ${SCROLL_TARGET_MS} ms`, ok: large.cpu <= SCROLL_TARGET_MS },
      {
        metric: `panel: main-thread CPU per scroll frame (trace) p95, ${large.n}-message chat`,
        value: `${fmt(large.traced.p95, 1)} ms`,
        target: `<= ${SCROLL_TARGET_MS} ms`,
        ok: large.traced.p95 <= SCROLL_TARGET_MS,
      },
      { metric: `panel: heap after GC, ${small.n} vs ${large.n} messages`, value: `${fmt(small.heapMB, 1)} vs ${fmt(large.heapMB, 1)} MB`, target: "flat (<= 1.5x; the state grows)", ok: large.heapMB <= small.heapMB * 1.5 },
      {
        metric: `panel: elements while scrolling, ${small.n} vs ${large.n} messages`,
        value: `${small.maxElements} vs ${large.maxElements}`,
        target: "flat",
        ok: large.maxElements <= small.maxElements * 1.5,
      },
    ];
    reportRows("panel", rows);
  } finally {
    await panel.close();
  }
}

/**
 * The same scroll again, `frames` frames up and as many back, under a Chromium performance
 * trace: the main thread's own CPU time per frame and what it went to (script, style, layout,
 * paint). Thread time, unlike frame intervals, does not count waiting for a CPU on a loaded
 * machine. A separate pass, so tracing does not slow the frames timed above.
 */
async function tracedScroll(panel: PanelPage, chat: ChatState, step: number, frames: number): Promise<{ p50: number; p95: number; frames: number; cost: MainThreadCost }> {
  await loadPanel(panel.page, panel.url);
  await panel.page.evaluate(`(${TIME_SNAPSHOT})(${JSON.stringify({ state: chat, lastId: chat.items[chat.items.length - 1].id })})`);
  await panel.browser.startTracing(panel.page, { categories: ["devtools.timeline", "disabled-by-default-devtools.timeline"] });
  await panel.page.evaluate(`(${SCROLL})({ step: ${step}, limit: ${frames} })`);
  const trace = (await panel.browser.stopTracing()).toString();
  const costs = frameCosts(trace);
  return { p50: percentile(costs, 50), p95: percentile(costs, 95), frames: costs.length, cost: mainThreadCost(trace) };
}

/**
 * CPU time (user + system, ms) used so far by Chromium's processes (every descendant of this
 * one), from /proc. Unlike frame times it does not count time spent waiting for a CPU, so on a
 * loaded machine it still says what a frame costs. 0 where /proc is missing.
 */
function browserCpuMs(): number {
  let entries: string[];
  try {
    entries = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return 0;
  }
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const pid of entries) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      stats.set(Number(pid), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // exited meanwhile
    }
  }
  const ours = (pid: number): boolean => {
    for (let at = stats.get(pid)?.ppid, hops = 0; at !== undefined && hops < 20; at = stats.get(at)?.ppid, hops++) if (at === process.pid) return true;
    return false;
  };
  let ticks = 0;
  for (const [pid, stat] of stats) if (ours(pid)) ticks += stat.ticks;
  return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
}

/** Used JS heap after a full GC, in MB. */
async function heapMB(page: import("playwright-core").Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("HeapProfiler.collectGarbage");
  const { usedSize } = (await cdp.send("Runtime.getHeapUsage")) as { usedSize: number };
  await cdp.detach();
  return usedSize / (1024 * 1024);
}

async function taskSeconds(cdp: { send(method: "Performance.getMetrics"): Promise<{ metrics: { name: string; value: number }[] }> }): Promise<number> {
  const { metrics } = await cdp.send("Performance.getMetrics");
  return metrics.find((m) => m.name === "TaskDuration")?.value ?? 0;
}

await main();
