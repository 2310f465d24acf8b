// A JSON-RPC message stream over another process's stdio, for the side of Hermes that reads a
// peer it does not control: a child agent's stdout (acp/child-agent/run-child.ts) and, in the editor
// extension, the Hermes server's. It replaces the ACP SDK's ndJsonStream, which buffers a line
// until its newline whatever its size (a line with no newline grows without bound) and gives up
// on a frame over 32 MiB. Here every byte goes through the bounded FrameSplitter: a frame over
// the limit is skipped in constant memory and, when its id can be read, answered so nothing
// waits for it forever: our request whose reply was too large fails with an error, and the
// peer's request gets an error reply. Reading pauses while the consumer is behind.
// No SDK import: the message type is the caller's; the shape is the SDK's Stream.
import type { Readable, Writable } from "node:stream";
import { FrameSplitter, MB, type FrameEvent } from "./ndjson-lines";

export interface MessageStream<M> {
  readable: ReadableStream<M>;
  writable: WritableStream<M>;
}

export interface BoundedStreamOptions {
  /** The largest frame read, in bytes. */
  maxFrameBytes: number;
  /** Told about skipped frames and lines that are not JSON-RPC messages. */
  warn?: (message: string, details?: Record<string, unknown>) => void;
}

const ID = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/;

export function boundedNdJsonStream<M>(output: Writable, input: Readable, options: BoundedStreamOptions): MessageStream<M> {
  const splitter = new FrameSplitter(() => options.maxFrameBytes);
  const warn = options.warn ?? (() => {});
  const send = (message: unknown): Promise<void> =>
    new Promise((resolve, reject) => {
      if (output.destroyed || output.writableEnded) return reject(new Error("the peer's input is closed"));
      output.write(`${JSON.stringify(message)}\n`, (error) => (error ? reject(error) : resolve()));
    });
  let controller!: ReadableStreamDefaultController<M>;
  let done = false;

  const onFrame = (event: FrameEvent) => {
    if (done) return;
    if (event.kind === "oversize") {
      const mb = Math.round((event.limitBytes / MB) * 10) / 10;
      const idText = ID.exec(event.head)?.[1] ?? ID.exec(event.tail)?.[1];
      const id = idText === undefined ? undefined : (JSON.parse(idText) as string | number);
      const isRequest = /"method"\s*:/.test(event.head);
      warn("discarded a frame over the size limit", { limitBytes: event.limitBytes, id });
      if (id === undefined) return; // a notification (or no readable id): nothing waits for it
      const error = { code: -32600, message: `The message was larger than ${mb} MB and was discarded.` };
      if (isRequest) void send({ jsonrpc: "2.0", id, error }).catch(() => {}); // expected: the error answer cannot be sent when the peer is gone; the frame was already warned about
      else controller.enqueue({ jsonrpc: "2.0", id, error } as M);
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(event.text);
    } catch {
      // expected: a line that is not JSON is warned about (without its text, which may hold secrets) and skipped
      warn("ignored a line that is not JSON", { length: event.text.length });
      return;
    }
    if (message === null || typeof message !== "object" || Array.isArray(message)) {
      warn("ignored a line that is not a JSON-RPC message", { length: event.text.length });
      return;
    }
    controller.enqueue(message as M);
  };

  const readable = new ReadableStream<M>(
    {
      start(c) {
        controller = c;
        input.on("data", (chunk: Buffer | string) => {
          splitter.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk, onFrame);
          if ((controller.desiredSize ?? 1) <= 0) input.pause();
        });
        input.once("end", () => {
          splitter.end(onFrame);
          if (!done) {
            done = true;
            controller.close();
          }
        });
        input.once("error", (error) => {
          if (!done) {
            done = true;
            controller.error(error);
          }
        });
      },
      pull() {
        if (input.isPaused()) input.resume();
      },
      cancel() {
        done = true;
        input.destroy();
      },
    },
    { highWaterMark: 16 },
  );

  const writable = new WritableStream<M>({
    write: (message) => send(message),
    close: () => new Promise<void>((resolve) => output.end(resolve)),
    abort: () => {
      output.destroy();
    },
  });
  return { readable, writable };
}
