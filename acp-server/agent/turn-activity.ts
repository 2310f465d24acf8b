// What one turn did with tools, counted as its tool results come back. The session keeps the
// last turn's count; the skill nudge (skill-nudge.ts) and the learning review read it. A module
// of its own so that the session and its readers do not import each other.
import type { ChatMessage } from "../providers/types";

/** What one turn did with tools (kept on the session for the next turn's nudge). */
export interface TurnActivity {
  /** The session's prompt number (AgentSession.userTurns) of that turn. */
  turn: number;
  toolCalls: number;
  failures: number;
  /** A tool call succeeded after a failure and the turn ended with an answer. */
  recovered: boolean;
  /** Tool calls the user rejected with their own words ("no, do it like this"). */
  corrections: number;
}

export function startActivity(turn: number): TurnActivity {
  return { turn, toolCalls: 0, failures: 0, recovered: false, corrections: 0 };
}

/** Counts one batch of tool results. tool-runner reports every failure as an `{"error": ...}` output. */
export function countResults(activity: TurnActivity, results: readonly ChatMessage[]): void {
  for (const result of results) {
    activity.toolCalls++;
    const failed = result.role === "tool" && typeof result.content === "string" && result.content.startsWith('{"error":');
    if (failed) activity.failures++;
    if (failed && (result.content as string).startsWith('{"error":"The user rejected this: ')) activity.corrections++;
    else if (activity.failures > 0) activity.recovered = true;
  }
}
