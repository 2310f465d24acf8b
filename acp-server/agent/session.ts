// One conversation as the agent sees it: history, cwd, mode and tool state.
// Nothing here knows about ACP; the protocol edge wraps it.
import type { ChatMessage } from "../providers/types";
import type { CompactionRecord } from "../sessions/types";
import { SeenFiles } from "./seen-files";
import type { TurnActivity } from "./skill-nudge";
import { createSessionToolState, type SessionToolState } from "../tools/context";
import { SessionTools } from "../tools/tool-set";
import type { SessionMode } from "../security/modes";

/** Where completed steps are made durable (the session journal), set by the protocol edge. */
export interface SessionSink {
  /** A completed step: the user's prompt, an assistant message, one tool's result. */
  message(message: ChatMessage): void;
  systemPrompt(prompt: string): void;
  /** The model history was compressed (the journal keeps the original messages). */
  compaction(compaction: CompactionRecord): void;
}

/** Prompt size the provider reported for the last call, and the history length it covered. */
export interface LastCall {
  tokens: number;
  historyLength: number;
}

export class AgentSession {
  readonly history: ChatMessage[] = [];
  readonly toolState: SessionToolState = createSessionToolState();
  /** What the user allowed for the rest of this session ("command:<rule key>", "action:<kind>"). */
  readonly alwaysAllowed = new Set<string>();
  /** Cumulative cost of the session's model calls, when prices are known. */
  costUsd?: number;
  /** Token counters of this process's model calls in the session (for /usage). */
  tokensIn = 0;
  tokensOut = 0;
  modelCalls = 0;
  /** Context the last model call used (prompt + reply), for /context. */
  contextTokens?: number;
  /** The last model call's reported size, for the compression trigger (cleared when the history shrinks). */
  lastCall?: LastCall;
  /** Prompts run in this process (drives the periodic memory nudge). */
  userTurns = 0;
  /** What the latest turn did with tools, and the turn whose skill nudge was given (skill-nudge.ts). */
  lastTurnActivity?: TurnActivity;
  skillNudgedTurn?: number;
  /** Files the agent read or edited, to notice when they change outside the agent. */
  readonly seenFiles = new SeenFiles();
  /** The model picked for this session (an id from the model set); undefined = the main model. */
  modelId?: string;
  /** Built once (see prepareSystemPrompt) and then frozen, so provider prompt caches stay valid. */
  systemPrompt?: Promise<string>;
  sink?: SessionSink;
  /** How deep in delegation this session is: 0 for the user's, 1 for a subagent, ... */
  depth = 0;
  private readonly toolCallIds = new Set<string>();

  constructor(
    readonly id: string,
    readonly cwd: string,
    public mode: SessionMode,
    /** The registry's tools, its MCP servers' and what it may use of them (none: a session without tools). */
    readonly tools: SessionTools = new SessionTools(),
  ) {}

  /** Adds a completed step: durable first, then in memory. */
  append(message: ChatMessage): void {
    this.sink?.message(message);
    this.history.push(message);
  }

  /** Context compression: the compacted history replaces the model's; durable first. */
  replaceHistory(messages: ChatMessage[], compaction: CompactionRecord): void {
    this.sink?.compaction(compaction);
    this.history.splice(0, this.history.length, ...messages);
    this.lastCall = undefined;
  }

  /** /reset: a fresh context; the next prompt also rebuilds the system prompt (memory may have changed). */
  reset(): void {
    this.history.length = 0;
    this.systemPrompt = undefined;
    this.contextTokens = undefined;
    this.lastCall = undefined;
  }

  /** Restores ids already shown to the client (a reloaded session must not reuse them). */
  rememberToolCallIds(ids: Iterable<string>): void {
    for (const id of ids) this.toolCallIds.add(id);
  }

  /** ACP needs tool call ids unique within a session; providers may reuse theirs across turns. */
  uniqueToolCallId(providerId: string): string {
    let id = providerId || "call";
    for (let n = 2; this.toolCallIds.has(id); n++) id = `${providerId}#${n}`;
    this.toolCallIds.add(id);
    return id;
  }
}
