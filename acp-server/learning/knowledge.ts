// "What Hermes knows": both memory files entry by entry and the skills with their stats, as one
// read model, and the user's changes to memory (add, edit, delete, revert). `/memory` and
// `/skills` (memory/commands/memory.ts, skills/commands/skills.ts) and the panel's view
// (learning/knowledge-methods.ts) share it. Every memory write goes through MemoryStore: its threat
// scan, limits, lock, and the history a revert reads.
import { MemoryError, MEMORY_FILES, MemoryStore, type MemoryTarget } from "../memory/memory-store";
import { scanForThreats } from "../security/threat-scan";
import { listArchivedSkills } from "../skills/archive";
import { catalogFor, type SkillsContext } from "../skills/settings";
import { readSkillUsage } from "../skills/usage-store";
import { isReadOnlySource } from "../skills/sources";
import { listSkillVersions } from "../skills/versions";
import type { Knowledge, KnowledgeMemoryFile as MemoryFileView, KnowledgeOutcome, KnowledgeSkill as SkillView } from "../../common/panel-state/knowledge";

export const MEMORY_TARGETS: readonly MemoryTarget[] = ["memory", "user"];

// The read model's shapes are the panel's wire shapes (common/panel-state/knowledge.ts): one declaration for both sides.
export type { Knowledge, KnowledgeMemoryFile as MemoryFileView, KnowledgeOutcome, KnowledgeSkill as SkillView } from "../../common/panel-state/knowledge";

/** Archived skills shown; `/skills archived` lists more. */
const ARCHIVED_SHOWN = 30;

export function memoryFileView(store: MemoryStore, target: MemoryTarget): MemoryFileView {
  const entries = store.read(target);
  const chars = MemoryStore.text(entries).trimEnd().length;
  return {
    target,
    file: MEMORY_FILES[target].file,
    path: store.filePath(target),
    entries: entries.map((text) => {
      const blocked = scanForThreats(text, "memory");
      return blocked ? { text, blocked } : { text };
    }),
    chars,
    limit: store.limit(target),
    versions: store.history(target).length,
  };
}

export function readKnowledge(context: SkillsContext): Knowledge {
  const store = new MemoryStore(context.home);
  const usage = readSkillUsage(context.home);
  const skills = catalogFor(context).skills.map((skill): SkillView => {
    const used = usage[skill.name];
    return {
      name: skill.name,
      description: skill.description,
      source: skill.source,
      ...(skill.version ? { version: skill.version } : {}),
      file: skill.file,
      ...(skill.unavailable ? { unavailable: skill.unavailable } : {}),
      editable: !isReadOnlySource(skill.source),
      ...(!isReadOnlySource(skill.source) ? { text: skill.text } : {}),
      views: used?.views ?? 0,
      invocations: used?.invocations ?? 0,
      ...(used?.lastUsed ? { lastUsed: used.lastUsed } : {}),
      successes: used?.successes ?? 0,
      failures: used?.failures ?? 0,
      versions: skill.source === "bundled" ? 0 : listSkillVersions(context.home, skill.dir).length,
    };
  });
  // Restore brings back a name's newest copy: one row per name.
  const seen = new Set<string>();
  const archived = listArchivedSkills(context.home)
    .filter(({ name }) => !seen.has(name) && !!seen.add(name))
    .slice(0, ARCHIVED_SHOWN)
    .map(({ name, archivedAt }) => ({ name, archivedAt }));
  return { memory: memoryFileView(store, "memory"), user: memoryFileView(store, "user"), skills, archived };
}

/** The file a word names: memory / MEMORY.md / notes, user / USER.md / profile. */
export function memoryTargetOf(word: string | undefined): MemoryTarget | undefined {
  const key = word?.toLowerCase().replace(/\.md$/, "");
  if (key === "memory" || key === "notes") return "memory";
  if (key === "user" || key === "profile") return "user";
  return undefined;
}

/** Runs a memory change; a refusal (unsafe, over the limit, changed since, busy) becomes the outcome's message. */
function attempt(run: () => string): KnowledgeOutcome {
  try {
    return { ok: true, message: run() };
  } catch (error) {
    if (error instanceof MemoryError) return { ok: false, message: error.message };
    throw error;
  }
}

const fileName = (target: MemoryTarget) => MEMORY_FILES[target].file;
const usageNote = (chars: number, limit: number) => `${chars.toLocaleString("en")}/${limit.toLocaleString("en")} chars`;
const NEXT_SESSION = "New sessions see it (a running session keeps the memory it started with).";

export function addMemoryEntry(home: string, target: MemoryTarget, text: string): KnowledgeOutcome {
  return attempt(() => {
    const change = new MemoryStore(home).add(target, text);
    return `Added entry ${change.entries.length} to ${fileName(target)} (${usageNote(change.chars, change.limit)}). ${NEXT_SESSION}`;
  });
}

/** `n` is 1-based, as listed; `expected` guards against the file having changed since it was shown. */
export function editMemoryEntry(home: string, target: MemoryTarget, n: number, text: string, expected?: string): KnowledgeOutcome {
  return attempt(() => {
    const change = new MemoryStore(home).replaceAt(target, n - 1, text, expected);
    return `Changed entry ${n} of ${fileName(target)} (${usageNote(change.chars, change.limit)}). ${NEXT_SESSION} \`/memory revert ${target}\` takes it back.`;
  });
}

export function deleteMemoryEntry(home: string, target: MemoryTarget, n: number, expected?: string): KnowledgeOutcome {
  return attempt(() => {
    const change = new MemoryStore(home).removeAt(target, n - 1, expected);
    return `Deleted entry ${n} of ${fileName(target)} (${change.entries.length} left). ${NEXT_SESSION} \`/memory revert ${target}\` brings it back.`;
  });
}

/**
 * Brings back version `n` (default 1: the text before the last change) of a memory file; with no
 * target, of the file changed last. The text it replaces is kept, so a revert can be reverted.
 */
export function revertMemory(home: string, target?: MemoryTarget, n = 1): KnowledgeOutcome {
  const store = new MemoryStore(home);
  const chosen = target ?? lastChanged(store);
  if (!chosen) return { ok: false, message: "Memory has no earlier version kept: nothing was changed yet." };
  return attempt(() => {
    const change = store.restoreVersion(chosen, n);
    return `Reverted ${fileName(chosen)} to its earlier text (${change.entries.length} entries). The text it replaced is kept: \`/memory revert ${chosen}\` again undoes this. ${NEXT_SESSION}`;
  });
}

/** The file whose newest kept version is the most recent: the one changed last. */
function lastChanged(store: MemoryStore): MemoryTarget | undefined {
  let best: { target: MemoryTarget; at: number } | undefined;
  for (const target of MEMORY_TARGETS) {
    const at = store.history(target)[0]?.savedAt;
    if (at !== undefined && (!best || at > best.at)) best = { target, at };
  }
  return best?.target;
}
