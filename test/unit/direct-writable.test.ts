import { test } from "node:test";
import assert from "node:assert/strict";
import { directWritable } from "../../acp-server/transport/direct-writable";

// As the ACP SDK sends: a writer taken and released for every message, each write awaited.
async function send<M>(stream: WritableStream<M>, message: M): Promise<void> {
  const writer = stream.getWriter();
  try {
    await writer.write(message);
  } finally {
    writer.releaseLock();
  }
}

test("each message reaches the sink at once, in order, and the write resolves when the sink has taken it", async () => {
  const seen: number[] = [];
  let release: (() => void) | undefined;
  const stream = directWritable<number>((message) => {
    seen.push(message);
    return message === 2 ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
  });
  await send(stream, 1);
  let second = false;
  const pending = send(stream, 2).then(() => (second = true));
  assert.deepEqual(seen, [1, 2], "the sink is called synchronously by write");
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(second, false, "a write held by the sink (pushback) stays pending");
  release?.();
  await pending;
  await send(stream, 3);
  assert.deepEqual(seen, [1, 2, 3]);
  assert.equal(stream.locked, false, "the SDK can take a writer again and again");
});

test("a failed write fails every later write with the same error, and the sink is not called again", async () => {
  const failure = new Error("EPIPE");
  let calls = 0;
  const stream = directWritable<string>(() => {
    calls++;
    return Promise.reject(failure);
  });
  await assert.rejects(send(stream, "a"), (error) => error === failure);
  await assert.rejects(send(stream, "b"), (error) => error === failure);
  assert.equal(calls, 1);
  const thrower = directWritable<string>(() => {
    throw failure;
  });
  await assert.rejects(send(thrower, "a"), (error) => error === failure);
  await assert.rejects(send(thrower, "b"), (error) => error === failure);
});

test("nothing is written after close or abort", async () => {
  const seen: string[] = [];
  const closed = directWritable<string>((message) => (seen.push(message), Promise.resolve()));
  await send(closed, "a");
  await closed.getWriter().close();
  await assert.rejects(send(closed, "b"), TypeError);
  const aborted = directWritable<string>((message) => (seen.push(message), Promise.resolve()));
  const reason = new Error("connection lost");
  await aborted.getWriter().abort(reason);
  await assert.rejects(send(aborted, "c"), (error) => error === reason);
  assert.deepEqual(seen, ["a"]);
});

test("a pipe into the stream goes through the same sink and state", async () => {
  const seen: number[] = [];
  const stream = directWritable<number>((message) => (seen.push(message), Promise.resolve()));
  await ReadableStream.from([1, 2, 3]).pipeTo(stream);
  assert.deepEqual(seen, [1, 2, 3]);
  await assert.rejects(send(stream, 4), TypeError, "the pipe closed it");
});
