// Lazy loader for sql.js (SQLite compiled to WebAssembly). Nothing here runs at process
// start: the module and its ~650 KB wasm binary are loaded on the first call, when
// session/list, search or a read first needs the index.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { SqlJsStatic } from "sql.js";
import { keepWasmOnBaselineTier } from "../util/wasm-baseline";

const WASM_NAME = "sql-wasm.wasm";

let loading: Promise<SqlJsStatic> | undefined;

/** The sql.js module, initialized once per process. A failed load is retried on the next call. */
export function loadSqlJs(): Promise<SqlJsStatic> {
  loading ??= initialize().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

async function initialize(): Promise<SqlJsStatic> {
  const wasmFile = findWasm();
  const wasmBinary = readFileSync(wasmFile);
  const { default: initSqlJs } = await import("sql.js");
  // SQLite stays on V8's baseline wasm code: no optimizing recompiles, whose memory a
  // long-lived process keeps (util/wasm-baseline.ts).
  keepWasmOnBaselineTier();
  // Typed loosely: `useOldExtensionFunctions` is newer than @types/sql.js. Turning the legacy
  // extension functions off keeps sql.js from printing deprecation warnings to the console.
  const config: Record<string, unknown> = { wasmBinary, useOldExtensionFunctions: false };
  // sql.js is CommonJS and reads `__dirname` as soon as it initializes (to locate files it is
  // handed here anyway). Bundled into an ES module there is no such variable, and the bare
  // name falls through to the global object: lend it one for that synchronous first step.
  const global = globalThis as { __dirname?: string };
  const lend = !("__dirname" in global);
  if (lend) global.__dirname = path.dirname(wasmFile);
  try {
    return await Promise.resolve(initSqlJs(config));
  } finally {
    if (lend) delete global.__dirname;
  }
}

/**
 * The bundle ships dist/sql-wasm.wasm next to dist/hermes.js; code split into dist/chunks/
 * looks one level up. From sources (tests, tsx) the file comes from node_modules.
 */
export function findWasm(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const dir of [here, path.dirname(here)]) {
    const candidate = path.join(dir, WASM_NAME);
    if (existsSync(candidate)) return candidate;
  }
  return createRequire(import.meta.url).resolve(`sql.js/dist/${WASM_NAME}`);
}
