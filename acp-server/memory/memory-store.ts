// Persistent memory: two small markdown files under $HERMES_HOME/memories/ that are
// loaded into the system prompt at session start. MEMORY.md holds the agent's notes
// (environment facts, lessons), USER.md what it knows about the user. Entries are
// separated by "\n§\n". Writes go through a lock file and an atomic rename so two
// Hermes processes sharing one home never lose each other's entries. Every write that changes a
// file first keeps the text it replaces in $HERMES_HOME/memory-history/<memory|user>/ (a hand
// edit made since included), so `/memory revert` and the panel's Revert can bring it back.
import fs from "node:fs";
import path from "node:path";
import { scanForThreats } from "../security/threat-scan";
import { writeFileAtomicSync } from "../util/atomic-write";
import { keepTextVersion, listTextVersions, type TextVersion } from "../util/text-versions";
import { acquireFileLock, LockBusyError } from "../util/file-lock";
import { redactSecrets } from "../util/redact";
import { AgentError } from "../util/agent-error";
import { createLogger } from "../util/log";

const log = createLogger("memory");

export type MemoryTarget = "memory" | "user";

export const MEMORY_SEPARATOR = "\n§\n";

export const MEMORY_FILES: Record<MemoryTarget, { file: string; limit: number }> = {
  memory: { file: "MEMORY.md", limit: 2_200 },
  user: { file: "USER.md", limit: 1_375 },
};

/** Earlier texts kept per memory file; the oldest go first. */
const MAX_VERSIONS = 30;

const LOCK_TIMEOUT_MS = 2_000;
const LOCK_STALE_MS = 10_000;

/** A memory write refused (empty, unsafe, over the limit, busy); the message is for the model. */
export class MemoryError extends AgentError<"tool"> {
  constructor(message: string) {
    super("tool", message, {});
    this.name = "MemoryError";
  }
}

export interface MemoryChange {
  target: MemoryTarget;
  entries: string[];
  /** Size of the stored text (entries joined by the separator). */
  chars: number;
  limit: number;
}

function parseEntries(text: string): string[] {
  return text
    .split(MEMORY_SEPARATOR)
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
}

function joinEntries(entries: readonly string[]): string {
  return entries.join(MEMORY_SEPARATOR);
}

export class MemoryStore {
  readonly dir: string;

  constructor(readonly home: string) {
    this.dir = path.join(home, "memories");
  }

  filePath(target: MemoryTarget): string {
    return path.join(this.dir, MEMORY_FILES[target].file);
  }

  limit(target: MemoryTarget): number {
    return MEMORY_FILES[target].limit;
  }

  /** The entries on disk; a missing file has none. */
  read(target: MemoryTarget): string[] {
    let text: string;
    try {
      text = fs.readFileSync(this.filePath(target), "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
    return parseEntries(text);
  }

  /** Both blocks as text for the system prompt; poisoned entries are replaced by a marker. */
  snapshot(): { memory: string; user: string } {
    const block = (target: MemoryTarget) =>
      joinEntries(
        this.read(target).map((entry) => {
          const reason = scanForThreats(entry, "memory");
          return reason ? `[BLOCKED: ${reason}]` : entry;
        }),
      );
    return { memory: block("memory"), user: block("user") };
  }

  add(target: MemoryTarget, content: string): MemoryChange {
    const entry = this.checkContent(content);
    return this.update(target, (entries) => {
      if (entries.includes(entry)) return entries;
      return [...entries, entry];
    });
  }

  replace(target: MemoryTarget, oldText: string, content: string): MemoryChange {
    const entry = this.checkContent(content);
    return this.update(target, (entries) => {
      const index = findOne(target, entries, oldText);
      const next = [...entries];
      next[index] = entry;
      return next;
    });
  }

  /**
   * Replaces the entry at `index` (0-based, as read() lists them). `expected`: the entry's text
   * as the caller last saw it; when the file changed since and that entry is no longer there,
   * nothing is written (an edit must not land on another entry).
   */
  replaceAt(target: MemoryTarget, index: number, content: string, expected?: string): MemoryChange {
    const entry = this.checkContent(content);
    return this.update(target, (entries) => {
      checkIndex(target, entries, index, expected);
      return entries.map((current, i) => (i === index ? entry : current));
    });
  }

  /** Removes the entry at `index` (0-based); `expected` as for replaceAt. */
  removeAt(target: MemoryTarget, index: number, expected?: string): MemoryChange {
    return this.update(target, (entries) => {
      checkIndex(target, entries, index, expected);
      return entries.filter((_, i) => i !== index);
    });
  }

  /** Earlier texts of a memory file, newest first (each write keeps the one it replaces). */
  history(target: MemoryTarget): TextVersion[] {
    return listTextVersions(this.historyDir(target));
  }

  /**
   * Brings back version `n` of history() (1: the text before the last change). The restored
   * entries go through the same checks as any write (threat scan, separator, limit), and the
   * text they replace is kept, so a revert can itself be reverted.
   */
  restoreVersion(target: MemoryTarget, n = 1): MemoryChange {
    const versions = this.history(target);
    const chosen = Number.isInteger(n) && n >= 1 ? versions[n - 1] : undefined;
    if (!chosen) {
      throw new MemoryError(versions.length ? `No version ${n} of ${MEMORY_FILES[target].file}: there are ${versions.length} (1 is the newest).` : `${MEMORY_FILES[target].file} has no earlier version kept.`);
    }
    const entries = parseEntries(fs.readFileSync(chosen.file, "utf8")).map((entry) => this.checkContent(entry));
    return this.update(target, () => entries);
  }

  remove(target: MemoryTarget, oldText: string): MemoryChange {
    return this.update(target, (entries) => {
      const index = findOne(target, entries, oldText);
      return entries.filter((_, i) => i !== index);
    });
  }

  /**
   * What a change would make of the entries, without writing anything (the learning review
   * shows it as a diff before asking). Throws MemoryError as the change itself would.
   */
  preview(target: MemoryTarget, action: "add" | "replace" | "remove", content?: string, oldText?: string): { before: string[]; after: string[] } {
    const before = this.read(target);
    let after: string[];
    if (action === "add") {
      const entry = this.checkContent(content ?? "");
      after = before.includes(entry) ? before : [...before, entry];
    } else {
      const index = findOne(target, before, oldText ?? "");
      after = action === "replace" ? before.map((entry, i) => (i === index ? this.checkContent(content ?? "") : entry)) : before.filter((_, i) => i !== index);
    }
    const chars = joinEntries(after).length;
    if (chars > this.limit(target)) throw new MemoryError(`${MEMORY_FILES[target].file} would be ${chars} chars, over its limit of ${this.limit(target)}.`);
    return { before, after };
  }

  /**
   * Takes a change back (the learning review's undo): the entries it added go, the ones it
   * removed come back. Entries changed since are left as they are; the result names them.
   */
  revert(target: MemoryTarget, added: readonly string[], removed: readonly string[]): { change: MemoryChange; missing: string[] } {
    const missing: string[] = [];
    const change = this.update(target, (entries) => {
      let next = [...entries];
      for (const entry of added) {
        const at = next.indexOf(entry);
        if (at < 0) missing.push(entry);
        else next = next.filter((_, i) => i !== at);
      }
      for (const entry of removed) if (!next.includes(entry)) next.push(entry);
      return next;
    });
    return { change, missing };
  }

  /** The entries as the file text they are stored as (for diffs). */
  static text(entries: readonly string[]): string {
    return entries.length ? `${joinEntries(entries)}\n` : "";
  }

  private checkContent(content: string): string {
    const entry = content.trim();
    if (!entry) throw new MemoryError("Memory content is empty.");
    if (entry.split("\n").some((line) => line.trim() === "§")) {
      throw new MemoryError('Memory content may not contain a line with only "§" (it separates entries).');
    }
    const reason = scanForThreats(entry, "memory");
    if (reason) throw new MemoryError(`Refused to save this memory: it looks unsafe (${reason}). Memory must not contain instructions aimed at the agent, hidden text or secrets handling; save facts and preferences, rephrased if needed.`);
    // A credential in a note would reach every future session's prompt: it is masked on the way in.
    return redactSecrets(entry);
  }

  /** Applies `change` to the entries read under the lock and writes the result atomically. */
  private update(target: MemoryTarget, change: (entries: string[]) => string[]): MemoryChange {
    const limit = this.limit(target);
    fs.mkdirSync(this.dir, { recursive: true });
    const release = this.lock(target);
    try {
      const current = this.read(target);
      const next = change(current);
      const text = joinEntries(next);
      if (text.length > limit) {
        const currentChars = joinEntries(current).length;
        throw new MemoryError(
          `${MEMORY_FILES[target].file} would be ${text.length} chars, over its limit of ${limit} (currently ${currentChars}/${limit}). ` +
            `Consolidate first: use "replace" to merge or shorten existing entries, or "remove" entries that no longer matter, then try again.`,
        );
      }
      const before = joinEntries(current);
      if (next !== current && text !== before) {
        // The text on disk (a hand edit included) is kept before it is replaced.
        this.keepVersion(target, current);
        writeFileAtomicSync(this.filePath(target), text.length > 0 ? `${text}\n` : "");
      }
      return { target, entries: next, chars: text.length, limit };
    } finally {
      release();
    }
  }

  /** Keeps the entries about to be replaced; a history that cannot be written is logged, the write goes on. */
  private keepVersion(target: MemoryTarget, entries: readonly string[]): void {
    try {
      keepTextVersion(this.historyDir(target), MemoryStore.text(entries), `${entries.length}-entries`, MAX_VERSIONS);
    } catch (error) {
      log.warn("keeping the earlier memory text failed", { file: MEMORY_FILES[target].file, error });
    }
  }

  private historyDir(target: MemoryTarget): string {
    return path.join(this.home, "memory-history", target);
  }

  /** The lock every process shares (util/file-lock.ts: O_EXCL, dead-holder and age takeover). */
  private lock(target: MemoryTarget): () => void {
    const lockFile = `${this.filePath(target)}.lock`;
    try {
      return acquireFileLock(lockFile, { timeoutMs: LOCK_TIMEOUT_MS, staleMs: LOCK_STALE_MS });
    } catch (error) {
      if (error instanceof LockBusyError) throw new MemoryError(`Memory is busy (another Hermes process holds ${path.basename(lockFile)}); try again in a moment.`);
      throw error;
    }
  }

}

function checkIndex(target: MemoryTarget, entries: readonly string[], index: number, expected: string | undefined): void {
  const file = MEMORY_FILES[target].file;
  if (!Number.isInteger(index) || index < 0 || index >= entries.length) {
    throw new MemoryError(entries.length ? `${file} has no entry ${index + 1}: it has ${entries.length}.` : `${file} has no entries.`);
  }
  if (expected !== undefined && entries[index] !== expected.trim()) {
    throw new MemoryError(`Entry ${index + 1} of ${file} changed since it was shown; nothing was written. Look at the entries again and retry.`);
  }
}

function findOne(target: MemoryTarget, entries: readonly string[], oldText: string): number {
  const needle = oldText.trim();
  if (!needle) throw new MemoryError("old_text is empty: give a unique snippet of the entry to change.");
  const matches: number[] = [];
  entries.forEach((entry, index) => {
    if (entry.includes(needle)) matches.push(index);
  });
  if (matches.length === 0) {
    throw new MemoryError(`Nothing in ${MEMORY_FILES[target].file} matched ${JSON.stringify(needle)}. Check the current entries and use a snippet copied from one of them.`);
  }
  const [only, ...others] = matches;
  if (only === undefined || others.length > 0) {
    throw new MemoryError(`${matches.length} entries in ${MEMORY_FILES[target].file} contain ${JSON.stringify(needle)}; use a longer snippet that matches exactly one entry.`);
  }
  return only;
}
