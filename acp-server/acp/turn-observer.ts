// Sends what the agent loop reports as session/update notifications, in order, as it
// happens (text deltas are never held back), and journals what session/load must replay
// (finished tool calls, plans, titles). flush() waits until every update of the turn was
// written, so the prompt response never overtakes them.
import * as acp from "@agentclientprotocol/sdk/unstable";
import type { ModelChoice } from "../agent/model-choice";
import type { CompactionReport, ToolCallOutcome, ToolCallView, TurnObserver } from "../agent/turn-io";
import { callCost, UsageTotals } from "../agent/usage";
import type { TokenUsage } from "../providers/types";
import type { DisplayContent, Location, TodoItem } from "../tools/context";
import type { TitleSource } from "../sessions/types";
import type { Logger } from "../util/log";
import { redactDeep, redactSecrets } from "../util/redact";
import type { AcpSession } from "./acp-session";
import * as updates from "./updates";

export class AcpTurnObserver implements TurnObserver {
  private readonly inFlight = new Set<Promise<void>>();
  private failed = false;
  readonly usageTotals = new UsageTotals();
  /** Announced tool calls, kept until they finish so the journal gets the whole record. */
  private readonly calls = new Map<string, ToolCallView>();

  constructor(
    private readonly client: acp.AgentContext,
    private readonly session: AcpSession,
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

  textDelta(text: string): void {
    if (text) this.send(updates.textChunk(text));
  }

  reasoningDelta(text: string): void {
    if (text) this.send(updates.thoughtChunk(text));
  }

  toolCallPending(call: ToolCallView): void {
    this.calls.set(call.id, call);
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
    const call = this.calls.get(id);
    this.calls.delete(id);
    if (call) {
      const { id: callId, requestId, name, title, kind, rawInput } = call;
      const locations = outcome.locations ?? call.locations;
      const content = journalContent(outcome);
      this.session.recorder?.toolCall({ id: callId, requestId, name, title, kind, locations, rawInput, status: outcome.status, content, rawOutput: outcome.rawOutput });
    }
  }

  plan(todos: TodoItem[]): void {
    this.send(updates.planUpdate(todos));
    this.session.recorder?.plan(todos);
  }

  /** Names the session, durably, and tells the client. */
  setTitle(raw: string, source: TitleSource): void {
    const title = redactSecrets(raw); // a title made from a prompt that held a token
    this.session.title = title;
    this.session.titleSource = source;
    this.session.recorder?.settings({ title, titleSource: source });
    this.send({ sessionUpdate: "session_info_update", title, updatedAt: new Date().toISOString() });
  }

  usage(usage: TokenUsage, model: ModelChoice): void {
    this.usageTotals.add(usage);
    const agent = this.session.agent;
    agent.tokensIn += usage.inputTokens;
    agent.tokensOut += usage.outputTokens;
    agent.modelCalls++;
    agent.contextTokens = usage.inputTokens + usage.outputTokens;
    const cost = callCost(usage, model.price);
    if (cost !== undefined) agent.costUsd = (agent.costUsd ?? 0) + cost;
    this.session.recorder?.settings({ tokens: usage.inputTokens + usage.outputTokens });
    this.send(updates.usageUpdate(usage, model.contextWindow, agent.costUsd));
  }

  notice(text: string): void {
    this.send(updates.thoughtChunk(`\n⚠ ${text}\n`));
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
    this.send(updates.usageUpdate({ inputTokens: usedTokens, outputTokens: 0 }, model.contextWindow, this.session.agent.costUsd));
  }
}

/**
 * What a finished tool call's card keeps in the journal. An editor terminal is gone once the
 * session is reloaded (elsewhere, later), so it is kept as the command's output text.
 */
function journalContent(outcome: ToolCallOutcome): DisplayContent[] {
  return outcome.content.map((item) => {
    if (item.type !== "terminal") return item;
    const output = (outcome.rawOutput as { output?: unknown } | undefined)?.output;
    return { type: "text", text: `\`\`\`\n${typeof output === "string" ? output : ""}\n\`\`\`` };
  });
}
