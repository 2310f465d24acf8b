// A Logger whose lines wait for the real one. The lean entry (main.ts) answers `initialize`
// before the logging module and its redaction rules are loaded; what the early handshake logs
// meanwhile (a malformed or oversized frame) is replayed, in order, into the real log once the
// app has configured it. Nothing is written unredacted in between.
import type { Logger, LogLevel } from "./log";

export interface DeferredLogger extends Logger {
  /** Sends the waiting lines to `target`, and every later line straight to it. */
  attach(target: Logger): void;
}

/** Lines kept before the real log exists: a flood of bad frames in the first moments must not pile up. */
const MAX_WAITING = 100;

export function deferredLogger(): DeferredLogger {
  let target: Logger | undefined;
  let dropped = 0;
  const waiting: { level: LogLevel; message: string; fields?: Record<string, unknown> }[] = [];
  const at = (level: LogLevel) => (message: string, fields?: Record<string, unknown>) => {
    if (target) return target[level](message, fields);
    if (waiting.length < MAX_WAITING) waiting.push({ level, message, fields });
    else dropped++;
  };
  return {
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
    attach(real) {
      target = real;
      for (const line of waiting.splice(0)) real[line.level](line.message, line.fields);
      if (dropped > 0) real.warn(`${dropped} log lines from before the log was ready were dropped`);
      dropped = 0;
    },
  };
}
