// Answers the client's opening `initialize` before the ACP SDK is loaded. Loading the SDK
// (and the zod schemas it builds at import) is most of Hermes's start-up time, and editors
// wait on this answer before they show the agent as ready.
//
// The SDK still sees the whole conversation: the initialize line is replayed into it, so
// it initializes as usual, and its own (identical) answer to that request is dropped from
// stdout. Anything that is not a plain, well-formed initialize is left to the SDK.
//
// All of stdin goes through one bounded splitter (ndjson-lines.ts) from the first byte: a
// frame over acp.max_frame_mb is answered with an error and skipped without being buffered,
// and each frame's JSON-RPC envelope is checked (frame-envelope.ts) before the SDK sees it.
// The SDK gets parsed messages, not bytes: this is our replacement for its ndJsonStream,
// whose 32 MiB limit ends the connection.
//
// Cold start: where the platform allows (main.ts passes `blocking`), the first frame is read
// and the answer written with blocking reads and writes of the file descriptors, so Node's
// stdin and stdout streams (and the stream and net modules behind process.stdin) are only
// built after the answer has left. Nothing else can happen before the first frame anyway.
import { once } from "node:events";
import type { Readable, Writable } from "node:stream";
import type { AnyMessage, Stream } from "@agentclientprotocol/sdk/unstable";
import type { Logger } from "../util/log";
import { checkFrame, type ErrorFrame, oversizeOutcome } from "../transport/frame-envelope";
import { DEFAULT_MAX_FRAME_MB } from "../config/frame-limit";
import { type FrameEvent, FrameSplitter, MB } from "../util/ndjson-lines";
import { checkPlainInitialize, type PlainInitialize } from "./initialize-schema";
import { coalescingWriter, type FrameWriter } from "../transport/stdout-writer";
import { directWritable } from "../transport/direct-writable";

export interface Handshake {
  /** The SDK's message stream: checked frames from stdin in, ndjson to stdout out. */
  stream: Stream;
  /**
   * Writes ready-made frames straight to stdout, after everything the SDK has handed over.
   * Resolves at once while less than BULK_QUEUE_BYTES wait for the client: a long replay is
   * built while the client parses what went before.
   */
  writeFrames: (data: string | Uint8Array) => Promise<void>;
  /** Resolves once what was written has left for the client (at most a high-water mark still queued). */
  outputDrained: () => Promise<void>;
  /** Changes the frame size limit (once config.yaml's acp.max_frame_mb is known). */
  setMaxFrameBytes(bytes: number): void;
}

type JsonRpcId = PlainInitialize["id"];

/** How many checked messages may wait for the SDK before stdin is paused. */
const QUEUED_MESSAGES = 16;

/** Blocking reads and writes of stdin and stdout (fs.readSync / fs.writeSync on their descriptors). */
export interface BlockingIo {
  /** Reads into `buffer`; returns the byte count, 0 at the end of input. Throws (EAGAIN on a non-blocking descriptor) when it cannot. */
  read(buffer: Buffer): number;
  /** Writes what it can of `data`; returns the byte count. Throws when it cannot. */
  write(data: Buffer): number;
}

/** Bytes asked of each blocking read of the first frame. */
const BLOCKING_READ_BYTES = 64 * 1024;

/** Bytes of bulk frames (a replay) that may wait for the client before writeFrames waits too. */
const BULK_QUEUE_BYTES = 8 * 1024 * 1024;

/**
 * `stdin` and `stdout` may be given as getters (process.stdin's getter builds the stream): each
 * is called once, when first needed. `options.blocking` reads the first frame and writes the
 * answer without them; anything it cannot do (EAGAIN, any error) falls back to the streams,
 * with nothing read lost and nothing written twice.
 */
export async function earlyHandshake(
  stdinSource: Readable | (() => Readable),
  stdoutSource: Writable | (() => Writable),
  answer: (params: { clientCapabilities?: Record<string, unknown> }) => unknown,
  log: Logger,
  options: { maxFrameBytes?: number; blocking?: BlockingIo } = {},
): Promise<Handshake> {
  let maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_MB * MB;
  const splitter = new FrameSplitter(() => maxFrameBytes);
  let stdinStream: Readable | undefined;
  let stdoutStream: Writable | undefined;
  const stdout = () => (stdoutStream ??= typeof stdoutSource === "function" ? stdoutSource() : stdoutSource);
  let writer: FrameWriter | undefined;
  const write: FrameWriter = (data, queueLimit) => (writer ??= coalescingWriter(stdout()))(data, queueLimit);
  const reply = (frame: ErrorFrame) => void write(Buffer.from(`${JSON.stringify(frame)}\n`, "utf8"));

  // Messages for the SDK wait here while it has not started reading, while it has not yet
  // answered the replayed initialize (gate), or while it is behind (backpressure).
  const queue: AnyMessage[] = [];
  let controller: ReadableStreamDefaultController<AnyMessage> | undefined;
  let gateOpen = true;
  let ended = false;
  let failed: unknown;
  let firstLine: ((line: string | undefined) => void) | undefined;

  const flow = () => {
    if (controller && gateOpen) {
      while (queue.length > 0) controller.enqueue(queue.shift()!);
      if (ended) {
        controller.close();
        controller = undefined;
        return;
      }
    }
    // Nothing piles up: a paused stdin leaves the bytes in the pipe, where the client waits.
    const full = !controller || !gateOpen ? queue.length > 0 : (controller.desiredSize ?? 0) <= 0;
    if (full) stdinStream?.pause();
    else if (!ended) stdinStream?.resume();
  };

  const onFrame = (event: FrameEvent) => {
    if (event.kind === "oversize") {
      const outcome = oversizeOutcome(event.head, event.tail, event.limitBytes);
      log.warn("discarded an incoming frame over the size limit", { limitBytes: event.limitBytes, id: "reply" in outcome ? outcome.reply.id : outcome.response.id });
      if ("reply" in outcome) reply(outcome.reply);
      else queue.push(outcome.response as unknown as AnyMessage);
      return;
    }
    deliver(event.text);
    const resolve = firstLine;
    firstLine = undefined;
    resolve?.(event.text);
  };

  let malformed = 0;
  const deliver = (line: string) => {
    const checked = checkFrame(line);
    if (checked.ok) queue.push(checked.message as unknown as AnyMessage);
    else {
      // The first few are worth a warning; a flood of them must not flood the log.
      if (++malformed <= 5) log.warn("answered a malformed frame", { error: checked.reply.error.message, id: checked.reply.id });
      else log.debug("answered a malformed frame", { error: checked.reply.error.message, id: checked.reply.id });
      reply(checked.reply);
    }
  };

  const first = new Promise<string | undefined>((resolve) => (firstLine = resolve));
  const endInput = () => {
    splitter.end(onFrame);
    ended = true;
    firstLine?.(undefined);
  };
  const listen = () => {
    const stdin = (stdinStream = typeof stdinSource === "function" ? stdinSource() : stdinSource);
    stdin.on("data", (chunk: Buffer) => {
      splitter.push(chunk, onFrame);
      flow();
    });
    stdin.once("end", () => {
      endInput();
      flow();
    });
    stdin.once("error", (error) => {
      failed = error;
      firstLine?.(undefined);
      controller?.error(error);
    });
  };

  const blocking = options.blocking;
  if (blocking) readFirstFrameBlocking(blocking, (chunk) => splitter.push(chunk, onFrame), endInput, () => firstLine !== undefined);
  // Read by the blocking reads to the end of input: no stream to listen to.
  if (!ended && firstLine !== undefined) listen();

  const line = await first;
  const request = line === undefined ? undefined : plainInitialize(line);
  if (request) {
    const text = `${JSON.stringify({ jsonrpc: "2.0", id: request.id, result: answer(request.params) })}\n`;
    // A reply (to a malformed or oversized frame before it) already went to the stream: after it, in order.
    if (blocking && !stdoutStream) writeBlocking(blocking, Buffer.from(text, "utf8"), (rest) => stdout().write(rest));
    else stdout().write(text);
  }
  if (blocking && !ended && !stdinStream) listen();

  // The SDK answers requests that arrive before its initialize answer went out with
  // "not initialized"; a client that got our early answer may already have sent more.
  // So the SDK gets the initialize line alone, and the rest once it has answered it.
  if (request) gateOpen = false; // queue[0] is the initialize
  const openGate = () => {
    gateOpen = true;
    flow();
  };

  const readable = new ReadableStream<AnyMessage>(
    {
      start(c) {
        controller = c;
        if (failed) return c.error(failed);
        if (request && queue.length > 0) {
          c.enqueue(queue.shift()!); // the initialize, alone until the SDK has answered it
        }
        flow();
      },
      pull() {
        flow();
      },
      cancel() {
        controller = undefined;
        stdinStream?.pause();
      },
    },
    { highWaterMark: QUEUED_MESSAGES },
  );

  return {
    stream: { readable, writable: sdkOutput(write, request?.id, openGate, log) },
    writeFrames: (data) => write(typeof data === "string" ? Buffer.from(data, "utf8") : data, BULK_QUEUE_BYTES),
    // Past the high-water mark the last write returned false, so "drain" comes.
    outputDrained: async () => {
      const output = stdout();
      if (output.writableLength > output.writableHighWaterMark) await once(output, "drain");
    },
    setMaxFrameBytes: (bytes) => {
      maxFrameBytes = bytes;
    },
  };
}

/**
 * Feeds `push` with blocking reads until `waiting()` says the first line came, or to the end of
 * input (`end`). Stops at the first read that fails (EAGAIN: stdin is non-blocking; any other
 * error): the stream takes over from there, and what was read stays in the splitter.
 */
function readFirstFrameBlocking(io: BlockingIo, push: (chunk: Buffer) => void, end: () => void, waiting: () => boolean): void {
  while (waiting()) {
    // A fresh buffer each time: the splitter keeps slices of an unfinished frame.
    const buffer = Buffer.allocUnsafe(BLOCKING_READ_BYTES);
    let read: number;
    try {
      read = io.read(buffer);
    } catch {
      // expected: EAGAIN (stdin is non-blocking) or a failed read: nothing was consumed, so the
      // streams take over from here and meet the same input, or the same error, themselves.
      return;
    }
    if (read === 0) return end();
    push(buffer.subarray(0, read));
  }
}

/** Writes `data` with blocking writes; what they cannot take (EAGAIN, an error) goes to `fallback`, the stream. */
function writeBlocking(io: BlockingIo, data: Buffer, fallback: (rest: Buffer) => void): void {
  let written = 0;
  try {
    while (written < data.length) written += io.write(data.subarray(written));
  } catch {
    // expected: EAGAIN (stdout is non-blocking) or a failed write: the rest goes through the stream,
    // which reports a real failure itself.
    fallback(data.subarray(written));
  }
}

/** The SDK's messages as ndjson on stdout, minus its answer to the initialize we answered early (direct-writable.ts: no per-message writer). */
function sdkOutput(write: FrameWriter, answeredId: JsonRpcId | undefined, answered: () => void, log: Logger): WritableStream<AnyMessage> {
  let dropping = answeredId !== undefined;
  return directWritable<AnyMessage>(async (message) => {
    const frame = message as { id?: JsonRpcId; method?: string; error?: unknown };
    if (dropping && frame.id === answeredId && frame.method === undefined) {
      dropping = false;
      if (frame.error) log.error("the SDK rejected an initialize that was already answered", { error: frame.error });
      answered();
      return;
    }
    await write(Buffer.from(`${JSON.stringify(message)}\n`, "utf8"));
  });
}

/** The request if `line` is an ordinary initialize whose params the SDK will accept (zod: initialize-schema.ts). */
export function plainInitialize(line: string): PlainInitialize | undefined {
  const message = safeParse(line);
  return message === undefined ? undefined : checkPlainInitialize(message);
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // expected: not JSON, so not a plain initialize: the SDK gets the line and answers it as it should.
    return undefined;
  }
}
