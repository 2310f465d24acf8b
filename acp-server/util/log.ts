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
  /** Set while appends to `file` fail: the failure is told on stderr once, and every later line tries again. */
  fileFailing?: boolean;
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
      sink.fileFailing = false;
    } catch (err) {
      // An unwritable home must not stop the agent: stderr still works, and says why the file log is off.
      sink.file = undefined;
      writeStderr(`${new Date().toISOString()} WARN  [log] no log file: cannot create ${dir}: ${reasonOf(err)}\n`);
    }
  }
}

function write(level: LogLevel, scope: string, message: string, fields?: Record<string, unknown>): void {
  const rank = LEVELS[level];
  if (rank < sink.level && rank < sink.stderrLevel) return;
  let line = `${new Date().toISOString()} ${level.toUpperCase().padEnd(5)} [${scope}] ${message}`;
  if (fields && Object.keys(fields).length > 0) line += ` ${safeJson(fields)}`;
  line = redactSecrets(line) + "\n";
  if (rank >= sink.stderrLevel) writeStderr(line);
  if (sink.file && rank >= sink.level) appendToFile(sink.file, line);
}

function writeStderr(line: string): void {
  if (sink.stderrOpen && !process.stderr.destroyed) process.stderr.write(line);
}

/**
 * Appends one line to the log file. A failed append (disk full, file removed with its folder,
 * permissions) is told on stderr once and the file stays configured: the next line tries again,
 * and the first one that lands notes in the file that lines were lost.
 */
function appendToFile(file: string, line: string): void {
  try {
    // Synchronous append: log lines are rare and must survive a crash right after.
    if (sink.fileFailing) {
      appendFileSync(file, `${process.pid} ${new Date().toISOString()} WARN  [log] log file writable again; lines logged while it was not are only on stderr\n`);
      sink.fileFailing = false;
    }
    appendFileSync(file, `${process.pid} ${line}`);
  } catch (err) {
    if (sink.fileFailing) return; // already told on stderr for this outage; keep trying quietly
    sink.fileFailing = true;
    writeStderr(`${new Date().toISOString()} WARN  [log] cannot write log file ${file}: ${reasonOf(err)}; logging to stderr only until it can be written again\n`);
  }
}

function reasonOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, v: unknown) => (v instanceof Error ? { name: v.name, message: v.message } : v));
  } catch {
    // expected: fields JSON cannot encode (a cycle, a BigInt) are logged by their String() form instead
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
