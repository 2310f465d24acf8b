// `hermes acp`: serve ACP on stdin/stdout until the client goes away.
import * as acp from "@agentclientprotocol/sdk";
import { Readable, Writable } from "node:stream";
import { createAgentApp } from "../acp/agent-app";
import { hermesHome } from "../config/paths";
import { killAllLocalProcesses } from "../tools/local-shell";
import { configureLogging, createLogger } from "../util/log";
import { VERSION } from "../version";

export function runAcpServer(): void {
  configureLogging({ home: hermesHome() });
  const log = createLogger("acp");
  const app = createAgentApp({
    version: VERSION,
    log,
    loadRuntime: async () => (await import("../acp/agent-runtime")).loadAgentRuntime(log),
  });
  const connection = app.connect(
    acp.ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>),
  );

  let exiting = false;
  const shutdown = (why: string, code = 0) => {
    if (exiting) return;
    exiting = true;
    log.info(`shutting down: ${why}`);
    killAllLocalProcesses(); // no orphans: every command we started dies with us
    process.exit(code);
  };
  void connection.closed.then(() => shutdown("client closed the connection"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGHUP", () => shutdown("SIGHUP"));
  // A bug in one handler must not take the whole editor session down with it.
  process.on("uncaughtException", (error) => log.error("uncaught exception", { error, stack: error.stack }));
  process.on("unhandledRejection", (reason) => log.error("unhandled rejection", { reason }));
}
