// Writes protocol bytes to stdout. Replaying a long session, or streaming a fast answer,
// sends thousands of small frames; one write syscall each costs more than building them.
// Writes made in the same tick are coalesced by corking the stream until the end of this turn of the event loop (setImmediate), and
// a write resolves once the stream has taken the bytes, waiting only when the pipe pushes back.
import { once } from "node:events";
import type { Writable } from "node:stream";

export function coalescingWriter(stream: Writable): (data: Uint8Array) => Promise<void> {
  let corked = false;
  return async (data) => {
    if (!corked) {
      corked = true;
      stream.cork();
      setImmediate(() => {
        corked = false;
        stream.uncork();
      });
    }
    if (!stream.write(data)) await once(stream, "drain");
  };
}
