// `hermes acp`: serve ACP on stdin/stdout until the client goes away. The opening
// `initialize` was answered by the lean entry (main.ts, early-handshake.ts) before this loads;
// from here on the ACP SDK serves the connection.
import type { Handshake } from "../acp/early-handshake";
import { hermesHome } from "../config/paths";
import type { DeferredLogger } from "../util/deferred-log";
import { configureLogging, createLogger, routeConsoleToLog } from "../util/log";

/** `earlyLog` is the handshake's logger: its waiting lines go to the log from here on. */
export async function runAcpServer(handshake: Handshake, earlyLog: DeferredLogger): Promise<void> {
  configureLogging({ home: hermesHome() });
  routeConsoleToLog(); // stdout is the protocol; a library's console line goes to the redacting log
  const log = createLogger("acp");

  let exiting = false;
  const shutdown = (why: string, code = 0) => {
    if (exiting) return;
    exiting = true;
    log.info(`shutting down: ${why}`);
    // No orphans: process-group.ts kills every command, MCP server and child agent we started on
    // `exit` (its hook comes with the first spawn), which this reaches. Not imported here, so the
    // start before initialize does not load child_process.
    process.exit(code);
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGHUP", () => shutdown("SIGHUP"));
  // A bug in one handler must not take the whole editor session down with it; but an
  // error that keeps recurring means the process is broken, and spinning helps nobody.
  let recentFailures: number[] = [];
  process.on("uncaughtException", (error) => {
    const now = Date.now();
    recentFailures = [...recentFailures.filter((t) => now - t < 10_000), now];
    log.error("uncaught exception", { error, stack: error.stack });
    if (recentFailures.length > 20) shutdown("too many uncaught exceptions", 1);
  });
  process.on("unhandledRejection", (reason) => log.error("unhandled rejection", { reason }));

  earlyLog.attach(log);
  // Before the SDK and the config build their schemas.
  (await import("../util/zod-settings")).configureZod();
  const { serveAcp } = await import("../acp/stdio-server");
  const connection = serveAcp(handshake, log);
  void connection.closed.then(() => shutdown("client closed the connection"));
}
