// Sends what the agent loop reports as session/update notifications, in order, as it
// happens (text deltas are never held back). It only observes: what session/load must replay
// is journaled by the agent's session. flush() waits until every update of the turn was
// written, so the prompt response never overtakes them.
import * as acp from "@agentclientprotocol/sdk/unstable";
import type { ModelChoice } from "../agent/model-choice";
import type { CompactionReport, ToolCallOutcome, ToolCallView } from "../agent/turn-io";
import type { TokenUsage } from "../providers/types";
import type { DisplayContent, Location, TodoItem } from "../tools/context";
import type { LearnedNote, TitleSource } from "../sessions/types";
import type { SessionOutput } from "../runtime/session-output";
import type { Logger } from "../util/log";
import { redactDeep, redactSecrets } from "../util/redact";
import type { LiveSession } from "../runtime/live-session";
import * as updates from "./updates";

export class AcpTurnObserver implements SessionOutput {
  private readonly inFlight = new Set<Promise<void>>();
  private failed = false;

  constructor(
    private readonly client: acp.AgentContext,
    private readonly session: LiveSession,
    private readonly log: Logger,
    /** The client advertised `session.compaction`: compressions are shown as compaction_update. */
    private readonly compactionUpdates = false,
  ) {}

  private get sessionId(): string {
    return this.session.id;
  }

  /**
   * The one door for a turn's updates, so the one redaction pass: tool call titles, raw
   * inputs (a token in a command, a key in write_file's content), diffs, results, plans and
   * titles. Streamed text arrives already redacted by the reply collector (which handles a
   * secret split across deltas); passing it again only masks, never reveals.
   */
  steered(text: string): void {
    this.send(updates.steerChunk(redactSecrets(text)));
  }

  send(update: acp.SessionUpdate): void {
    const sent = this.client.notify(acp.methods.client.session.update, { sessionId: this.sessionId, update: redactDeep(update) }).catch((error: unknown) => {
      // The connection is gone; say so once instead of once per delta.
      if (!this.failed) this.log.warn("session/update could not be sent", { error });
      this.failed = true;
    });
    this.inFlight.add(sent);
    void sent.finally(() => this.inFlight.delete(sent));
  }

  async flush(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  say(text: string): void {
    this.send(updates.textChunk(text));
  }

  learned(note: LearnedNote): void {
    this.send(updates.learnedChunk(note));
  }

  contextMeter(usedTokens: number, contextWindow: number): void {
    this.send(updates.usageUpdate({ inputTokens: usedTokens, outputTokens: 0 }, contextWindow, this.session.agent.usage.costUsd));
  }

  textDelta(text: string, messageId?: string): void {
    if (text) this.send(updates.textChunk(text, messageId));
  }

  reasoningDelta(text: string, messageId?: string): void {
    if (text) this.send(updates.thoughtChunk(text, messageId));
  }

  toolCallPending(call: ToolCallView): void {
    this.send(updates.toolCallStarted(call));
  }

  toolCallRunning(id: string): void {
    this.send(updates.toolCallRunning(id));
  }

  toolCallProgress(id: string, update: { content?: DisplayContent[]; title?: string; locations?: Location[] }): void {
    this.send(updates.toolCallProgress(id, update));
  }

  toolCallFinished(id: string, outcome: ToolCallOutcome): void {
    this.send(updates.toolCallFinished(id, outcome));
  }

  plan(todos: TodoItem[]): void {
    this.send(updates.planUpdate(todos));
  }

  /** Names the session, durably, and tells the client. */
  setTitle(raw: string, source: TitleSource): void {
    const title = redactSecrets(raw); // a title made from a prompt that held a token
    this.session.agent.setTitle(title, source);
    this.send({ sessionUpdate: "session_info_update", title, updatedAt: new Date().toISOString() });
  }

  /** The session already counted the call (AgentSession.recordUsage); the client sees it. */
  usage(usage: TokenUsage, model: ModelChoice): void {
    this.send(updates.usageUpdate(usage, model.contextWindow, this.session.agent.usage.costUsd));
  }

  notice(text: string): void {
    this.session.agent.recordNotice(text);
    this.send(updates.noticeChunk(text));
  }

  compactionStarted(id: string): void {
    if (this.compactionUpdates) this.send(updates.compactionStarted(id));
  }

  compactionFinished(id: string, report: CompactionReport): void {
    if (this.compactionUpdates) this.send(updates.compactionFinished(id, report));
    // /compress answers for itself; otherwise the user learns of it in the agent's message.
    else if (report.status !== "cancelled" && report.trigger !== "command") this.send(updates.textChunk(updates.compactionNotice(report)));
  }

  contextUsage(usedTokens: number, model: ModelChoice): void {
    this.send(updates.usageUpdate({ inputTokens: usedTokens, outputTokens: 0 }, model.contextWindow, this.session.agent.usage.costUsd));
  }
}
