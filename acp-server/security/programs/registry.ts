// The program registry: one entry per program (programs/entries-*.ts), looked up by the name
// a command runs it by. Every table the command screen, plan mode and the shell parser use is
// derived from it (programs/tables.ts); test/unit/program-registry.test.ts fails on a program
// table or a switch over program names anywhere else in security/.
import { CODE_ENTRIES } from "./entries-code";
import { FILE_ENTRIES } from "./entries-files";
import { RUNNER_ENTRIES } from "./entries-runners";
import { SERVICE_ENTRIES } from "./entries-services";
import { SHELL_ENTRIES } from "./entries-shells";
import { SYSTEM_ENTRIES } from "./entries-system";
import type { ProgramEntry } from "./program-entry";

export const PROGRAM_ENTRIES: readonly ProgramEntry[] = [...SHELL_ENTRIES, ...FILE_ENTRIES, ...SYSTEM_ENTRIES, ...SERVICE_ENTRIES, ...CODE_ENTRIES, ...RUNNER_ENTRIES];

function index(entries: readonly ProgramEntry[]): Map<string, ProgramEntry> {
  const byName = new Map<string, ProgramEntry>();
  for (const entry of entries) {
    for (const name of entry.names) {
      // Two entries for one name would make the screen's answer depend on which one a table read.
      if (byName.has(name)) throw new Error(`program registry: "${name}" has two entries`);
      byName.set(name, entry);
    }
  }
  return byName;
}

const BY_NAME = index(PROGRAM_ENTRIES);
/** `python3.12` → `python`, `PHP8` → `php`: the base name of a versioned program. */
const VERSION_SUFFIX = /[0-9][0-9.]*$/;

/** The entry for the name a command runs a program by, or undefined (an unknown program: no trust). */
export function programEntry(name: string): ProgramEntry | undefined {
  const exact = BY_NAME.get(name);
  if (exact) return exact;
  const lower = name.toLowerCase();
  const folded = BY_NAME.get(lower) ?? BY_NAME.get(lower.replace(VERSION_SUFFIX, ""));
  return folded?.versioned ? folded : undefined;
}

/** A derived table: the programs with a trait, looked up like the registry (versions, case). */
export interface ProgramSet {
  has(name: string): boolean;
  /** The names the registry lists (without versioned spellings), for tests and generators. */
  readonly names: readonly string[];
}

export function programsWith(test: (entry: ProgramEntry) => boolean): ProgramSet {
  const names = PROGRAM_ENTRIES.filter(test).flatMap((entry) => entry.names);
  const exact = new Set(names);
  return {
    has: (name) => {
      if (exact.has(name)) return true;
      const entry = programEntry(name);
      return entry?.versioned === true && test(entry);
    },
    names,
  };
}
