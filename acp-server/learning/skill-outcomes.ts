// Skills that prove themselves: each turn that loaded or invoked a skill counts for it as a
// success (the turn ended well) or a failure (the user rejected a tool call with their reason,
// or the next prompt corrected the result: "no, …"). The counts live beside the use counts
// (skills/usage-store.ts) and /skills shows the rate.
import type { AgentSession } from "../agent/session";
import { recordSkillOutcome } from "../skills/usage-store";
import { isCorrection } from "./turn-digest";
import type { TurnStep } from "../runtime/turn-step";

/** Per session: the skills whose last turn was counted a success (a correction next revises it). */
const lastSuccess = new WeakMap<AgentSession, string[]>();

/** A prompt arrives: when it corrects the previous turn, that turn's skills did not work after all. */
export function onPromptStart(home: string, session: AgentSession, prompt: string): void {
  const skills = lastSuccess.get(session);
  lastSuccess.delete(session);
  if (skills?.length && isCorrection(prompt)) recordSkillOutcome(home, skills, "revise");
}

/** A turn ended: the skills it used get its outcome (a cancelled or failed turn counts for nothing). */
export function onTurnEnd(home: string, session: AgentSession, stopReason: string): void {
  const used = [...session.toolState.skillsUsed];
  session.toolState.skillsUsed.clear();
  const corrected = (session.turnActivity?.corrections ?? 0) > 0;
  if (used.length === 0) return;
  if (corrected) recordSkillOutcome(home, used, "failure");
  else if (stopReason === "end_turn") {
    recordSkillOutcome(home, used, "success");
    lastSuccess.set(session, used);
  }
}

/** Skills' outcomes as a step of every turn: a correcting prompt marks the last skills for revision; the turn's end scores the ones it used. */
export const skillOutcomesStep: TurnStep = {
  name: "skill outcomes",
  before: (turn) => onPromptStart(turn.runtime.loaded.home, turn.session.agent, turn.promptText),
  ended: (turn) => onTurnEnd(turn.runtime.loaded.home, turn.session.agent, turn.stopReason),
};
