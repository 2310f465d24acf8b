// Structured logging: one named logger per module. Lines go to stderr and to
// $HERMES_HOME/logs/hermes-YYYY-MM-DD.log. stdout is reserved for protocol frames
// (ACP) or the reply text (chat), so nothing here may ever write to it.
import { appendFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { inspect } from "node:util";
import { redactSecrets } from "./redact";

export type LogLevel = "debug" | "info" | "warn" | "error";
const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

interface Sink {
  level: number;
  stderrLevel: number;
  file?: string;
  /** Cleared when nobody reads stderr any more (EPIPE): logging must never fail the agent. */
  stderrOpen: boolean;
}

const sink: Sink = { level: LEVELS.info, stderrLevel: LEVELS.info, stderrOpen: true };

// A client that closes our stderr (crashed, or never reads it) turns every write into an
// asynchronous EPIPE error; unhandled, that error would reach the uncaught-exception
// logger, which writes to stderr again, and so on forever.
process.stderr.on("error", () => {
  sink.stderrOpen = false;
});

/**
 * Points file logging at `<home>/logs/` and sets levels. Called once at startup;
 * until then (and in unit tests) only stderr is used.
 */
export function configureLogging(options: { home?: string; level?: LogLevel; stderrLevel?: LogLevel }): void {
  if (options.level) sink.level = LEVELS[options.level];
  if (options.stderrLevel) sink.stderrLevel = LEVELS[options.stderrLevel];
  if (options.home) {
    const dir = path.join(options.home, "logs");
    try {
      mkdirSync(dir, { recursive: true });
      sink.file = path.join(dir, `hermes-${new Date().toISOString().slice(0, 10)}.log`);
    } catch {
      sink.file = undefined; // an unwritable home must not stop the agent; stderr still works
    }
  }
}

function write(level: LogLevel, scope: string, message: string, fields?: Record<string, unknown>): void {
  const rank = LEVELS[level];
  if (rank < sink.level && rank < sink.stderrLevel) return;
  let line = `${new Date().toISOString()} ${level.toUpperCase().padEnd(5)} [${scope}] ${message}`;
  if (fields && Object.keys(fields).length > 0) line += ` ${safeJson(fields)}`;
  line = redactSecrets(line) + "\n";
  if (rank >= sink.stderrLevel && sink.stderrOpen && !process.stderr.destroyed) process.stderr.write(line);
  if (sink.file && rank >= sink.level) {
    try {
      // Synchronous append: log lines are rare and must survive a crash right after.
      appendFileSync(sink.file, `${process.pid} ${line}`);
    } catch {
      sink.file = undefined;
    }
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, v: unknown) => (v instanceof Error ? { name: v.name, message: v.message } : v));
  } catch {
    return String(value);
  }
}

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export function createLogger(scope: string): Logger {
  return {
    debug: (m, f) => write("debug", scope, m, f),
    info: (m, f) => write("info", scope, m, f),
    warn: (m, f) => write("warn", scope, m, f),
    error: (m, f) => write("error", scope, m, f),
  };
}

/** The `logger` option of the provider SDKs (openai, @anthropic-ai/sdk): their lines, redacted, in our log. */
export interface SdkLogger {
  error: (message: string, ...rest: unknown[]) => void;
  warn: (message: string, ...rest: unknown[]) => void;
  info: (message: string, ...rest: unknown[]) => void;
  debug: (message: string, ...rest: unknown[]) => void;
}

function joinArgs(args: unknown[]): string {
  return args.map((arg) => (typeof arg === "string" ? arg : inspect(arg, { depth: 4, breakLength: Infinity }))).join(" ");
}

/**
 * A logger for a third-party SDK. SDK debug logs carry request options (headers, bodies);
 * every line goes through write(), which redacts, and never through console.
 */
export function sdkLogger(scope: string): SdkLogger {
  return {
    error: (...args: unknown[]) => write("error", scope, joinArgs(args)),
    warn: (...args: unknown[]) => write("warn", scope, joinArgs(args)),
    info: (...args: unknown[]) => write("info", scope, joinArgs(args)),
    debug: (...args: unknown[]) => write("debug", scope, joinArgs(args)),
  };
}

/**
 * Routes console.* of every library (the MCP SDK warns through console.warn; a stray
 * console.log would corrupt the ACP stream on stdout) through the redacting logger.
 */
export function routeConsoleToLog(): void {
  const log = sdkLogger("console");
  /* eslint-disable no-console -- the one place that takes console over, to route it into the log */
  console.log = log.info;
  console.info = log.info;
  console.debug = log.debug;
  console.warn = log.warn;
  console.error = log.error;
  console.trace = log.debug;
  /* eslint-enable no-console */
}
