// Sends what the agent loop reports as session/update notifications, in order, as it
// happens (text deltas are never held back). flush() waits until every update of the
// turn was written, so the prompt response never overtakes them.
import * as acp from "@agentclientprotocol/sdk";
import type { ModelChoice } from "../agent/model-choice";
import type { AgentSession } from "../agent/session";
import type { ToolCallOutcome, ToolCallView, TurnObserver } from "../agent/turn-io";
import { callCost, UsageTotals } from "../agent/usage";
import type { TokenUsage } from "../providers/types";
import type { DisplayContent, Location, TodoItem } from "../tools/context";
import type { Logger } from "../util/log";
import * as updates from "./updates";

export class AcpTurnObserver implements TurnObserver {
  private readonly inFlight = new Set<Promise<void>>();
  private failed = false;
  readonly usageTotals = new UsageTotals();

  constructor(
    private readonly client: acp.AgentContext,
    private readonly session: AgentSession,
    private readonly log: Logger,
  ) {}

  private get sessionId(): string {
    return this.session.id;
  }

  send(update: acp.SessionUpdate): void {
    const sent = this.client.notify(acp.methods.client.session.update, { sessionId: this.sessionId, update }).catch((error: unknown) => {
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

  textDelta(text: string): void {
    if (text) this.send(updates.textChunk(text));
  }

  reasoningDelta(text: string): void {
    if (text) this.send(updates.thoughtChunk(text));
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

  usage(usage: TokenUsage, model: ModelChoice): void {
    this.usageTotals.add(usage);
    const cost = callCost(usage, model.price);
    if (cost !== undefined) this.session.costUsd = (this.session.costUsd ?? 0) + cost;
    this.send(updates.usageUpdate(usage, model.contextWindow, this.session.costUsd));
  }

  notice(text: string): void {
    this.send(updates.thoughtChunk(`\n⚠ ${text}\n`));
  }
}
