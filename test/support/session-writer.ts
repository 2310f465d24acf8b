// A separate process writing sessions into a HERMES_HOME, for the multi-process tests.
//   node --import tsx test/support/session-writer.ts sessions <home> <prefix> <count> <messages> <expectTotal>
//     creates <count> sessions of <messages> messages each (listing now and then, so the
//     index and state.db are exercised too), then waits until session/list shows
//     <expectTotal> sessions (the other writer's included) and prints "saw <n>".
//   node --import tsx test/support/session-writer.ts loop <home> <id>
//     appends messages to one session until killed, printing "appended <seq>" after each
//     append has returned; each line is in the pipe before the next append starts.
import { writeSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { SessionStore } from "../../acp-server/sessions/session-store";
import { assistantMessage, prose, recordingLogger, sessionMeta, userMessage } from "./session-fixtures";

const [mode, home, ...rest] = process.argv.slice(2);
const log = recordingLogger();
const store = new SessionStore({ home, log });

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
  const deadline = Date.now() + 20_000;
  let seen = 0;
  while (Date.now() < deadline) {
    seen = (await store.list({ limit: 500 })).sessions.length;
    if (seen >= expectTotal) break;
    await sleep(50);
  }
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
