// Writes protocol bytes to stdout. Replaying a long session, or streaming a fast answer,
// sends thousands of small frames; one write syscall each costs more than building them.
// Writes made in the same tick are coalesced by corking the stream until the end of this turn of the event loop (setImmediate), and
// a write resolves once the stream has taken the bytes, waiting only when the pipe pushes back.
// A bulk writer (session/load's replay) may pass `queueLimit`: it waits only once more than that
// many bytes are queued, so it builds the next frames while the client parses the last ones.
import { once } from "node:events";
import type { Writable } from "node:stream";

export type FrameWriter = (data: Uint8Array, queueLimit?: number) => Promise<void>;

export function coalescingWriter(stream: Writable): FrameWriter {
  let corked = false;
  return async (data, queueLimit = 0) => {
    if (!corked) {
      corked = true;
      stream.cork();
      setImmediate(() => {
        corked = false;
        stream.uncork();
      });
    }
    if (!stream.write(data) && stream.writableLength > queueLimit) await once(stream, "drain");
  };
}
