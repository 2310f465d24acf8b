// Keeps this process's WebAssembly on V8's baseline compiler (Liftoff). Two modules run here:
// sql.js's SQLite (the session index) and undici's llhttp (every model call's HTTP parsing).
// By default V8 recompiles a wasm function with its optimizing compiler once it has run
// enough, and for these two that is costly for a long-lived agent (measured, Node 20):
// - llhttp's main parse function alone takes 300-500 ms of CPU and 24 MB of compiler memory;
// - SQLite's hot functions are recompiled a few at a time as the index takes each turn's
//   messages, over the whole session;
// and compiler memory is malloc'd on V8's worker threads, whose glibc arenas keep it: 11-16 MB
// of resident memory after 200 turns (bench/rss.ts), against 1-5 MB without these recompiles.
// Baseline code is fast enough for both: HTTP parsing of a model's stream is a small share of
// a turn, and the index's ingestion and searches measure the same (bench/session-search.ts),
// since the optimizing compiles cost about what they save.
//
// V8 decides this per module, when the module is compiled: the flags must be set before
// either module is, and change nothing for a module compiled earlier. `--liftoff-only` is
// not used: it aborts the process when Liftoff cannot compile a function (a CPU without a
// feature a module needs); with these two flags such a function goes to the optimizing
// compiler as usual. On an engine without the flags, setFlagsFromString ignores them.
import v8 from "node:v8";

let applied = false;

/** Idempotent; call before the first wasm module compiles (the ACP server's start, sql.js's load). */
export function keepWasmOnBaselineTier(): void {
  if (applied) return;
  applied = true;
  // No dynamic tier-up (a hot function recompiled), and no eager one instead of it.
  v8.setFlagsFromString("--no-wasm-dynamic-tiering");
  v8.setFlagsFromString("--no-wasm-tier-up");
}
