// The `hermes` executable (dist/hermes.js): a small CommonJS entry, so `hermes acp` answers the
// editor's `initialize` as soon as Node itself is up. An ES module entry costs Node's module
// loader (resolution, facades of every builtin it imports, one compile per chunk) before the
// first line of our code runs: about as long again as a bare Node start. So this file holds
// only what the answer needs (the early handshake: frame checks, the zod/mini initialize
// schema, the answer) and loads the app (dist/chunks/app.mjs, code-split ESM) right after
// answering; every other command goes straight to the app. Nothing here runs at import
// beyond choosing the command. stdin and stdout are read and written with blocking fs calls
// until the answer is out (early-handshake.ts), so Node's stream modules load after it.
import { readSync, writeSync } from "node:fs";
import nodeModule from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type BlockingIo, earlyHandshake } from "./acp/early-handshake";
import { initializeResponse } from "./acp/initialize-response";
import type * as App from "./cli/app";
import { hermesHome } from "./config/paths";
import { deferredLogger } from "./util/deferred-log";
import { VERSION } from "./version";

/** The rest of Hermes: the code-split ESM bundle beside this file (esbuild.config.mjs names it). */
function loadApp(): Promise<typeof App> {
  return import(pathToFileURL(path.join(__dirname, "chunks", "app.mjs")).href) as Promise<typeof App>;
}

/** `hermes acp`: answer initialize here, then hand the connection to the app. */
async function serveAcp(): Promise<void> {
  const log = deferredLogger();
  const handshake = await earlyHandshake(
    () => process.stdin,
    () => process.stdout,
    // This process's own command line, for clients that run terminal sign-in from the legacy `_meta` key.
    (params) => initializeResponse(VERSION, params.clientCapabilities, { command: process.execPath, args: [...process.execArgv, process.argv[1] ?? "hermes", "acp"] }),
    log,
    { blocking: blockingStdio() },
  );
  enableCompileCache(); // before the app's chunks load, after the answer (it costs the answer a module or two)
  await (await loadApp()).runAcpServer(handshake, log);
}

/**
 * Blocking reads of fd 0 and writes of fd 1 for the first frame and its answer, on POSIX (a
 * pipe, socket, file or terminal; a non-blocking one throws EAGAIN and the streams take over).
 * Not on Windows, where a blocking read of a pipe is not one Node supports well.
 */
function blockingStdio(): BlockingIo | undefined {
  if (process.platform === "win32") return undefined;
  return {
    read: (buffer) => readSync(0, buffer, 0, buffer.length, null),
    write: (data) => writeSync(1, data),
  };
}

/**
 * V8's compile cache (Node >= 22.1; nothing on older Node), started before the app's chunks
 * load so their compiled code is reused across starts. See util/compile-cache.ts (which flushes it).
 */
function enableCompileCache(): void {
  try {
    const api = nodeModule as unknown as { enableCompileCache?: (directory: string) => unknown };
    api.enableCompileCache?.(path.join(hermesHome(), "cache", "compile"));
  } catch {
    // expected: an unwritable home only costs the compile cache
  }
}

function failed(error: unknown): never {
  process.stderr.write(`hermes: could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
}

const argv = process.argv.slice(2);
// `hermes acp` with options (--check, --setup) is an ordinary command of the app.
if (argv.length === 1 && argv[0] === "acp") serveAcp().catch(failed);
else loadApp().then((app) => app.runCli(argv), failed);
