// The contract of the work around a turn: what runs before the loop (a note for the first model
// call), when it has ended (before the answer goes out), once the answer is out (background
// work), and when a new prompt arrives (background work stops). Each step is one object in its
// feature's folder; app/turn-steps.ts lists them in the order they run. Hooks (hooks/) plug in
// at the same place.
import type { ChatMessage, UserPart } from "../providers/types";
import type { Logger } from "../util/log";
import type { ClientChannel } from "./client-channel";
import type { LiveSession } from "./live-session";
import type { AgentRuntime } from "./runtime";
import type { SessionOutput } from "./session-output";

export interface TurnContext {
  session: LiveSession;
  runtime: AgentRuntime;
  client: ClientChannel;
  output: SessionOutput;
  log: Logger;
  signal: AbortSignal;
  /** What the user sent, as the model gets it. */
  parts: UserPart[];
  /** Its text parts, joined. */
  promptText: string;
}

export interface EndedTurn extends TurnContext {
  stopReason: string;
  /** The turn's messages, its prompt first. */
  messages: readonly ChatMessage[];
}

/** What a step's `before` may hand the loop. */
export interface BeforeTurn {
  /** A note for the turn's first model call only (never stored); awaited just before that call. */
  contextNote?: Promise<string | undefined>;
}

export interface TurnStep {
  /** For logs: which step failed. */
  name: string;
  /** Before the loop runs (the prompt is not journaled yet). Must not block: start work, return a promise. */
  before?(turn: TurnContext): BeforeTurn | void;
  /** The loop ended normally, before the answer goes out (what the answer should already reflect). */
  ended?(turn: EndedTurn): void;
  /** The answer went out: background work that never delays the user. */
  answered?(turn: EndedTurn): void;
  /** A prompt arrived for the session: background work stops at once. */
  interrupt?(session: LiveSession): void;
}
