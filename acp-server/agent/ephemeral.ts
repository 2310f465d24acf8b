// The ephemeral layer: volatile notes for the model (a periodic memory nudge, files changed
// outside the agent) added to one call's request only. They are never stored in the history,
// the journal or the frozen system prompt, so the prompt cache stays valid.
import { displayPath } from "../tools/paths";
import type { AgentSession } from "./session";

export interface NudgeSettings {
  /** Every this many prompts, remind the model of the memory tool (0: never). */
  memoryEvery: number;
  /** Say when files the agent read or edited were changed by someone else. */
  changedFiles: boolean;
}

export const DEFAULT_NUDGES: NudgeSettings = { memoryEvery: 10, changedFiles: true };

/** Most changed files named in one note. */
const MAX_NAMED = 10;

export const MEMORY_NUDGE =
  "[Hermes reminder: if this conversation taught you something durable about the user (preferences, style) or the environment " +
  "(tools, conventions, lessons learned), save it now with the memory tool. Skip this if there is nothing new worth keeping.]";

/** The notes for the first model call of a turn (call after the turn's prompt was counted), or undefined. */
export function turnNotes(session: AgentSession, settings: NudgeSettings, toolNames: readonly string[]): string | undefined {
  const notes: string[] = [];
  if (settings.changedFiles) {
    const changed = session.seenFiles.takeChanged();
    if (changed.length > 0) notes.push(changedFilesNote(changed, session.cwd));
  }
  if (settings.memoryEvery > 0 && session.userTurns > 0 && session.userTurns % settings.memoryEvery === 0 && toolNames.includes("memory")) {
    notes.push(MEMORY_NUDGE);
  }
  return notes.length ? notes.join("\n\n") : undefined;
}

export function changedFilesNote(files: string[], cwd: string): string {
  const shown = files.slice(0, MAX_NAMED).map((file) => displayPath(cwd, file));
  const more = files.length > MAX_NAMED ? ` and ${files.length - MAX_NAMED} more` : "";
  return `[Hermes note: these files changed since you last read or edited them (edited by the user or another program): ${shown.join(", ")}${more}. Read them again before relying on their earlier content.]`;
}

/** Joins the notes of one call; undefined when there are none. */
export function joinNotes(...notes: (string | undefined)[]): string | undefined {
  const present = notes.filter((note): note is string => !!note);
  return present.length ? present.join("\n\n") : undefined;
}
