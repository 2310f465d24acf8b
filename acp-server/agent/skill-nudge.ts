// The learning loop's nudge: after a turn that took many tool calls, or that recovered from
// failed ones, the next turn's first model call gets an ephemeral note suggesting to save the
// procedure as a skill (or a memory). It is part of the ephemeral layer: sent with one call,
// never stored or frozen into the prompt, and given at most once for a given turn. The counts it
// reads are kept by turn-activity.ts.
import type { AgentSession } from "./session";

export interface SkillNudgeSettings {
  /** Nudge after a turn with at least this many tool calls (0: never for that reason). */
  afterToolCalls: number;
  /** Nudge after a turn that had failed tool calls and still finished. */
  onRecovery: boolean;
}

export const DEFAULT_SKILL_NUDGE: SkillNudgeSettings = { afterToolCalls: 8, onRecovery: true };

/** The nudge for this turn's first call, when the previous turn earned one that was not given yet. */
export function skillNudge(session: AgentSession, settings: SkillNudgeSettings, toolNames: readonly string[]): string | undefined {
  const last = session.lastTurnActivity;
  // skill_manage may be sent, or waiting to be loaded (tool_search): either way the session can call it.
  const manage = session.tools.get("skill_manage");
  const callable = toolNames.includes("skill_manage") || (manage !== undefined && toolNames.includes("tool_search") && session.tools.allows(manage));
  if (!last || session.skillNudgedTurn === last.turn || !callable) return undefined;
  const long = settings.afterToolCalls > 0 && last.toolCalls >= settings.afterToolCalls;
  const recovered = settings.onRecovery && last.recovered;
  if (!long && !recovered) return undefined;
  session.markSkillNudged(last.turn);
  const what = recovered
    ? `took ${last.toolCalls} tool calls and recovered from ${last.failures} failed one${last.failures === 1 ? "" : "s"}`
    : `took ${last.toolCalls} tool calls`;
  return (
    `[Hermes reminder: the previous task ${what}. If the approach that worked is reusable (a procedure you would follow again here or in another project), ` +
    `save it now with skill_manage${toolNames.includes("skill_manage") ? "" : " (load it with tool_search first)"}: create a skill with a clear "Use when..." description and the concrete steps, or patch the skill you followed if a step was wrong or missing. ` +
    `A single durable fact belongs in memory instead. Skip this if nothing reusable was learned, and carry on with the user's message.]`
  );
}
