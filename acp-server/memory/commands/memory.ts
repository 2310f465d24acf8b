// /memory and its subcommands, answered without the model:
//   /memory                               both files' entries, numbered
//   /memory add FILE <text>               a new entry
//   /memory edit FILE N <text>            entry N's new text
//   /memory delete FILE N                 entry N goes
//   /memory history [FILE]                the earlier texts kept
//   /memory revert [FILE] [N]             version N back (default: before the last change; no
//                                         FILE: the file changed last)
// FILE is `memory` (MEMORY.md) or `user` (USER.md). Writes go through the memory store (threat
// scan, limits, history), like the memory tool's.
import { MEMORY_FILES, MemoryStore, type MemoryTarget } from "../memory-store";
import {
  addMemoryEntry,
  deleteMemoryEntry,
  editMemoryEntry,
  MEMORY_TARGETS,
  memoryFileView,
  memoryTargetOf,
  revertMemory,
  type MemoryFileView,
} from "../../learning/knowledge";
import { defineCommand } from "../../runtime/slash-command";

const USAGE = [
  "`/memory add memory|user <text>`",
  "`/memory edit memory|user N <text>`",
  "`/memory delete memory|user N`",
  "`/memory history [memory|user]`",
  "`/memory revert [memory|user] [N]`",
].join(", ");

const TITLES: Record<MemoryTarget, string> = {
  memory: "Memory: the agent's notes on environments, tools and lessons",
  user: "User profile: what it knows about you",
};

export function memoryAnswer(argument: string, home: string): string {
  const [verb = "", ...rest] = argument.split(/\s+/).filter(Boolean);
  if (!verb) return listing(home);
  const target = memoryTargetOf(rest[0]);
  // The text keeps its own spacing and lines: it is what follows the words before it.
  const textAfter = (words: number) => argument.replace(new RegExp(`^\\s*(?:\\S+\\s+){${words}}`), "").trim();
  switch (verb) {
    case "add":
      if (!target || rest.length < 2) return `Usage: \`/memory add memory|user <text>\`.`;
      return addMemoryEntry(home, target, textAfter(2)).message;
    case "edit": {
      const n = entryNumber(rest[1]);
      if (!target || n === undefined || rest.length < 3) return `Usage: \`/memory edit memory|user N <text>\` (\`/memory\` shows the numbers).`;
      return editMemoryEntry(home, target, n, textAfter(3)).message;
    }
    case "delete": {
      const n = entryNumber(rest[1]);
      if (!target || n === undefined || rest.length > 2) return `Usage: \`/memory delete memory|user N\` (\`/memory\` shows the numbers).`;
      return deleteMemoryEntry(home, target, n).message;
    }
    case "history":
      if (rest.length > 0 && !target) return `Usage: \`/memory history [memory|user]\`.`;
      return history(home, target ? [target] : MEMORY_TARGETS);
    case "revert": {
      const [first, second] = rest;
      const file = memoryTargetOf(first);
      const which = file ? second : first;
      const n = which === undefined ? 1 : entryNumber(which);
      if (n === undefined || rest.length > (file ? 2 : 1)) return `Usage: \`/memory revert [memory|user] [N]\` (\`/memory history\` numbers the versions).`;
      return revertMemory(home, file, n).message;
    }
    default:
      return `Unknown: \`/memory ${argument}\`. \`/memory\` lists the entries; ${USAGE}.`;
  }
}

function entryNumber(word: string | undefined): number | undefined {
  return word !== undefined && /^[1-9]\d{0,4}$/.test(word) ? Number(word) : undefined;
}

function listing(home: string): string {
  const store = new MemoryStore(home);
  const blocks = MEMORY_TARGETS.map((target) => fileBlock(memoryFileView(store, target)));
  return [...blocks, `Changes apply from the next session. ${USAGE}. Editing the files by hand works too.`].join("\n\n");
}

function fileBlock(view: MemoryFileView): string {
  const head = `**${TITLES[view.target]}** (\`${view.file}\`, ${view.chars.toLocaleString("en")}/${view.limit.toLocaleString("en")} chars)`;
  if (view.entries.length === 0) return `${head}\n(empty)`;
  const lines = view.entries.map((entry, index) => {
    // Continuation lines are indented so each entry stays one list item.
    const text = entry.text.replace(/\n/g, "\n   ");
    const blocked = entry.blocked ? ` _(not given to the model: the threat scan flags it, ${entry.blocked})_` : "";
    return `${index + 1}. ${text}${blocked}`;
  });
  return [head, ...lines].join("\n");
}

function history(home: string, targets: readonly MemoryTarget[]): string {
  const store = new MemoryStore(home);
  return targets
    .map((target) => {
      const versions = store.history(target);
      const file = MEMORY_FILES[target].file;
      if (versions.length === 0) return `**${file}**: no earlier version kept.`;
      const lines = versions.map((version, index) => `${index + 1}. ${version.label.replace(/-entries$/, " entries")}, replaced ${new Date(version.savedAt).toISOString().slice(0, 19).replace("T", " ")}`);
      return [`**${file}**, earlier texts, newest first (\`/memory revert ${target} N\`):`, ...lines].join("\n");
    })
    .join("\n\n");
}

export const memoryCommand = defineCommand({
  name: "memory",
  description: "The agent's memory and your profile, numbered; add, edit, delete, revert",
  hint: "add|edit|delete|history|revert memory|user [N] [text] (empty: list)",
  run: ({ argument, runtime, output }) => output.say(memoryAnswer(argument, runtime.loaded.home)),
});
