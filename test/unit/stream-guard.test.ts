// The idle watchdog around every streaming call: a stream that sends nothing for idleMs is
// abandoned as stalled; every chunk restarts the count, and time the consumer spends on an
// event (between pause() and the next arm()) never counts.
import assert from "node:assert/strict";
import { test } from "node:test";
import { StreamGuard } from "../../acp-server/providers/stream-guard";

test("chunks keep the stream alive, a paused consumer is never a stall, silence after arm() is", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "Date"] });
  const guard = new StreamGuard(new AbortController().signal, 1_000, "test stream");
  t.after(() => guard.dispose(true));
  guard.arm();
  t.mock.timers.tick(900);
  guard.arm(); // a chunk: the count starts again
  t.mock.timers.tick(900);
  assert.equal(guard.signal.aborted, false);
  guard.pause(); // the consumer handles an event for a long time
  t.mock.timers.tick(5_000);
  assert.equal(guard.signal.aborted, false);
  guard.arm();
  t.mock.timers.tick(999);
  assert.equal(guard.signal.aborted, false);
  t.mock.timers.tick(1);
  assert.equal(guard.signal.aborted, true);
  assert.throws(() => guard.check(), /stalled/);
});

test("without an idle timeout nothing is watched", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "Date"] });
  const guard = new StreamGuard(new AbortController().signal, undefined, "test stream");
  guard.arm();
  t.mock.timers.tick(60_000);
  assert.equal(guard.signal.aborted, false);
  guard.dispose(true);
});
