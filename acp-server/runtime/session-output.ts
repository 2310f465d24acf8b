// What a session tells the user, in the app's own terms: the loop's events (TurnObserver) plus
// what commands and background steps say. The front end turns each into its wire format (the
// ACP edge: session/update notifications); nothing here knows that format.
import type { TurnObserver } from "../agent/turn-io";
import type { LearnedNote, TitleSource } from "../sessions/types";

export interface SessionOutput extends TurnObserver {
  /** Text of the agent's message that no model wrote (a command's answer, a failure said in the chat). */
  say(text: string): void;
  /** Something the learning loop saved, announced with its undo. */
  learned(note: LearnedNote): void;
  /** Names the session, durably, and tells the user (redacted: titles come from prompts). */
  setTitle(raw: string, source: TitleSource): void;
  /** The context meter without a model call: `usedTokens` of a `contextWindow`. */
  contextMeter(usedTokens: number, contextWindow: number): void;
  /** Resolves once everything said so far has been handed to the front end. */
  flush(): Promise<void>;
}
