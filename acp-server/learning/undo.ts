// Takes back one change the learning review or the curator made. Memory: the entries it added
// go and the ones it replaced or removed come back. A new skill: its folder moves to the
// archive (kept, never deleted). An archived skill: its folder moves back. A changed skill: its
// files get their earlier text back, unless someone changed them since (then nothing is
// touched and the answer says to use /skills revert).
import fs from "node:fs";
import path from "node:path";
import { MemoryError, MemoryStore } from "../memory/memory-store";
import { archiveSkill, restoreArchivedSkill } from "../skills/archive";
import { SKILL_FILE } from "../skills/library";
import { keepSkillVersion } from "../skills/versions";
import { writeFileAtomicSync } from "../util/atomic-write";
import type { LearnedChange, LearningLedger } from "./ledger";

export type UndoOutcome = { ok: true; message: string } | { ok: false; message: string };

export function undoLearnedChange(ledger: LearningLedger, id: string): UndoOutcome {
  const change = ledger.get(id);
  if (!change) return { ok: false, message: `No learned change with id \`${id}\`. \`/learned\` lists them.` };
  if (change.undone) return { ok: false, message: `\`${id}\` was already undone (${change.undone}).` };
  const outcome = change.memory ? undoMemory(ledger.home, change) : change.skill ? undoSkill(ledger.home, change) : { ok: false as const, message: `\`${id}\` has nothing to undo.` };
  if (outcome.ok) ledger.markUndone(change);
  return outcome;
}

function undoMemory(home: string, change: LearnedChange): UndoOutcome {
  const memory = change.memory!;
  try {
    const { missing } = new MemoryStore(home).revert(memory.target, memory.added, memory.removed);
    const note = missing.length ? ` (${missing.length} of its entries had already been changed or removed and were left as they are)` : "";
    return { ok: true, message: `Undid \`${change.id}\`: ${change.what} is no longer in ${path.basename(change.where)}${note}.` };
  } catch (error) {
    if (error instanceof MemoryError) return { ok: false, message: `Could not undo \`${change.id}\`: ${error.message}` };
    throw error;
  }
}

function undoSkill(home: string, change: LearnedChange): UndoOutcome {
  const skill = change.skill!;
  if (skill.archivedTo) {
    const refused = restoreArchivedSkill(skill.archivedTo, skill.dir);
    if (refused) return { ok: false, message: `Could not undo \`${change.id}\`: ${refused}. \`/skills archived\` lists the archive; \`/skills restore ${skill.name}\` brings the newest copy back.` };
    return { ok: true, message: `Undid \`${change.id}\`: the skill "${skill.name}" is back (\`${skill.dir}\`) and offered again from the next session.` };
  }
  if (skill.created) {
    if (!fs.existsSync(skill.dir)) return { ok: true, message: `Undid \`${change.id}\`: the skill "${skill.name}" is already gone.` };
    const archived = archiveSkill(home, skill.dir);
    return { ok: true, message: `Undid \`${change.id}\`: the skill "${skill.name}" is archived (\`${archived}\`), no longer listed or offered.` };
  }
  const changed = skill.files.filter((file) => readOrNull(file.path) !== file.newText);
  if (changed.length) {
    return { ok: false, message: `Could not undo \`${change.id}\`: ${changed.map((file) => path.basename(file.path)).join(", ")} changed since. \`/skills history ${skill.name}\` and \`/skills revert ${skill.name}\` go back to an earlier version.` };
  }
  for (const file of skill.files) {
    if (file.newText !== null && path.basename(file.path) === SKILL_FILE) keepSkillVersion(home, skill.dir, file.newText);
    if (file.oldText === null) fs.rmSync(file.path, { force: true });
    else writeFileAtomicSync(file.path, file.oldText, 0o644);
  }
  return { ok: true, message: `Undid \`${change.id}\`: the skill "${skill.name}" is back to what it was before.` };
}

function readOrNull(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    // expected: no file (or an unreadable one) reads as null: the undo compares against "not there"
    return null;
  }
}
