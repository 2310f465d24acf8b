// Brings the index level with the journals on disk: new journals are read whole, grown ones
// from where the index stopped, vanished ones are dropped. Costs a readdir and a stat per
// journal when nothing changed. Each journal is read and ingested synchronously, so an
// append by this process can never slip in between reading a file and recording its offset.
import { existsSync, statSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { isValidSessionId } from "./errors";
import { readJournalFrom } from "./journal";
import type { JournalState, SessionIndex } from "./session-index";

/** Work between yields to the event loop, so a first full ingest does not freeze the agent. */
const SLICE_MS = 20;

export interface CatchUpResult {
  warnings: string[];
  /** Whether the index changed (and should be saved). */
  changed: boolean;
}

export async function catchUpIndex(index: SessionIndex, dir: string): Promise<CatchUpResult> {
  const warnings: string[] = [];
  let changed = false;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    names = [];
  }
  const unseen = index.journalStates();
  const journals = names.filter((name) => name.endsWith(".jsonl") && isValidSessionId(name.slice(0, -".jsonl".length)));
  for (let next = 0; next < journals.length; ) {
    // One transaction per slice of work, then a turn of the event loop.
    const sliceEnd = Date.now() + SLICE_MS;
    next = index.batch(() => {
      let i = next;
      for (; i < journals.length && Date.now() < sliceEnd; i++) {
        const file = journals[i]!; // i < journals.length
        const id = file.slice(0, -".jsonl".length);
        const known = unseen.get(id);
        unseen.delete(id);
        try {
          if (ingestJournal(index, id, path.join(dir, file), known, warnings)) changed = true;
        } catch (error) {
          // An unreadable journal (permissions, I/O error) must not hide all the others.
          warnings.push(`${path.join(dir, file)}: not indexed (${(error as Error).message})`);
        }
      }
      return i;
    });
    if (next < journals.length) await yieldToEventLoop();
  }
  for (const id of unseen.keys()) {
    // Listed in the index but not in the directory: gone, unless created since the readdir.
    if (!existsSync(path.join(dir, `${id}.jsonl`))) {
      index.delete(id);
      changed = true;
    }
  }
  return { warnings, changed };
}

/** Ingests what is new in one journal. Returns whether the index changed. */
function ingestJournal(index: SessionIndex, id: string, file: string, known: JournalState | undefined, warnings: string[]): boolean {
  let stat;
  try {
    stat = statSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false; // deleted meanwhile
    throw error;
  }
  if (known && stat.size === known.size && stat.mtimeMs === known.mtime) return false;
  let state = index.journalState(id); // fresh: this process's appends may have moved it since the snapshot
  if (state && stat.size === state.size && stat.mtimeMs === state.mtime) return false;
  let changed = false;
  if (state && stat.size < state.offset) {
    // Shorter than what was read: the file was replaced. Start over.
    index.delete(id);
    state = undefined;
    changed = true;
  }
  const read = readJournalFrom(file, state?.offset ?? 0);
  warnings.push(...read.warnings);
  const position = { offset: read.bytes, size: stat.size, mtime: stat.mtimeMs };
  if (state && read.records.length === 0 && read.bytes === state.offset) {
    index.touch(id, position);
    return changed;
  }
  warnings.push(...index.ingest(id, read.records, position));
  return true;
}
