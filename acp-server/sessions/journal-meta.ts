// A session's meta record alone, read from the head of its journal: what session/list needs to
// name a session's worktree, without reading (or parsing) the whole conversation of every row.
import { open } from "node:fs/promises";
import { journalPath } from "./journal";
import { parseJournal } from "./journal-parse";
import type { SessionMeta } from "./types";

/** Meta records are small: one read almost always holds the first line (a longer one takes more reads). */
const HEAD_BYTES = 16 * 1024;

export async function readJournalMeta(sessionsDir: string, sessionId: string): Promise<SessionMeta | undefined> {
  const file = journalPath(sessionsDir, sessionId);
  const handle = await open(file, "r");
  try {
    let data = Buffer.alloc(0);
    // Reads on until the first line ends: a meta record is never parsed from a cut line.
    for (;;) {
      const chunk = Buffer.alloc(HEAD_BYTES);
      const { bytesRead } = await handle.read(chunk, 0, HEAD_BYTES, data.length);
      data = Buffer.concat([data, chunk.subarray(0, bytesRead)]);
      const end = data.indexOf(0x0a);
      if (end >= 0 || bytesRead === 0) {
        const first = parseJournal(end >= 0 ? data.subarray(0, end + 1) : data, { file, offset: 0, firstLine: 1, takeUnterminated: false }).records[0];
        return first?.t === "meta" ? first.session : undefined;
      }
    }
  } finally {
    await handle.close();
  }
}
