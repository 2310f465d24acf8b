// A separate process writing sessions into a HERMES_HOME, for the multi-process tests.
//   node --import tsx test/support/session-writer.ts sessions <home> <prefix> <count> <messages> <expectTotal>
//     creates <count> sessions of <messages> messages each (listing now and then, so the
//     index and state.db are exercised too), then waits until session/list shows
//     <expectTotal> sessions (the other writer's included) and prints "saw <n>".
//   node --import tsx test/support/session-writer.ts loop <home> <id>
//     appends messages to one session until killed, printing "appended <seq>" after each
//     append has returned; each line is in the pipe before the next append starts.
import { watch, writeSync } from "node:fs";
import path from "node:path";
import { SessionStore } from "../../acp-server/sessions/session-store";
import { assistantMessage, prose, recordingLogger, sessionMeta, userMessage } from "./session-fixtures";

const [mode, home, ...rest] = process.argv.slice(2);
const log = recordingLogger();
// Every query reads the clock past the catch-up throttle, so each list sees what the other
// writer appended up to then: the wait below lists once per change it is told of.
let clockMs = Date.now();
const store = new SessionStore({ home, log, now: () => (clockMs += 1_000) });

if (mode === "sessions") {
  const [prefix, count, messages, expectTotal] = [rest[0], Number(rest[1]), Number(rest[2]), Number(rest[3])];
  for (let i = 0; i < count; i++) {
    const id = `${prefix}-${i}`;
    store.create(sessionMeta(id, home, Date.now()));
    for (let seq = 0; seq < messages; seq++) {
      const text = `${prefix} session ${i} message ${seq} ${prose(i * 100 + seq, 20)}`;
      store.append(id, seq % 2 === 0 ? userMessage(seq, Date.now(), text) : assistantMessage(seq, Date.now(), text));
    }
    store.closeSession(id);
    if (i % 10 === 9) await store.list({ limit: 5 });
  }
  // Lists again each time a journal in the sessions folder changes (the other writer at work),
  // until all are seen; 20 s without reaching the total ends the wait, and the test fails on
  // the count printed.
  const changed = journalChanges(path.join(home, "sessions"));
  const giveUp = setTimeout(() => changed.stop(), 20_000);
  let seen: number;
  for (;;) {
    const next = changed.next(); // armed before the list, so no change falls between the two
    seen = (await store.list({ limit: 500 })).sessions.length;
    if (seen >= expectTotal || !(await next)) break;
  }
  clearTimeout(giveUp);
  changed.stop();
  await store.close();
  process.stdout.write(`saw ${seen}\n`);
  if (log.warnings.length > 0) process.stderr.write(`${log.warnings.join("\n")}\n`);
} else if (mode === "loop") {
  const id = rest[0];
  store.create(sessionMeta(id, home, Date.now()));
  process.stdout.write("ready\n");
  for (let seq = 0; ; seq++) {
    store.append(id, userMessage(seq, Date.now(), `record ${seq} ${prose(seq, 40)}`));
    writeLineNow(`appended ${seq}\n`);
  }
} else {
  process.stderr.write(`unknown mode ${mode}\n`);
  process.exitCode = 2;
}

/** `next()` resolves true at the next change in `dir`, or false once stopped. */
function journalChanges(dir: string) {
  let wake: ((changed: boolean) => void) | undefined;
  let pending = false;
  const watcher = watch(dir, () => {
    if (wake) wake(true);
    else pending = true;
    wake = undefined;
  });
  let stopped = false;
  return {
    next(): Promise<boolean> {
      if (stopped) return Promise.resolve(false);
      if (pending) {
        pending = false;
        return Promise.resolve(true);
      }
      return new Promise((resolve) => (wake = resolve));
    },
    stop(): void {
      stopped = true;
      watcher.close();
      wake?.(false);
      wake = undefined;
    },
  };
}

/**
 * process.stdout queues writes when the pipe is full, and a process killed with queued
 * writes loses them: the test would then see fewer acknowledgements than there were.
 * This writes straight to fd 1, waiting out a full (non-blocking) pipe.
 */
function writeLineNow(line: string): void {
  const bytes = Buffer.from(line);
  for (let written = 0; written < bytes.length; ) {
    try {
      written += writeSync(1, bytes, written);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
    }
  }
}
