// The chat's queue: prompts typed while a turn runs. With Hermes (it advertises
// `agentCapabilities._meta["hermes/queue"]`) they are sent at once, named `_meta["hermes/queueId"]`,
// and wait in the agent's own queue, the one `/queue` lists: the list shown is the agent's
// (`_hermes/queue/changed`), with the ones just sent until it has them. Some wait here instead,
// unsent ("held"): while a session loads, while a command that may switch the chat to a fork
// runs, after the agent died, and always with an agent that does not queue (sent one by one).
// Pure bookkeeping, no ACP calls: chat-session.ts sends. No vscode import.
import { randomUUID } from "node:crypto";
import { queueChangedSchema } from "../common/queue-changed";
import type { QueueChanged, QueuedPromptView } from "../common/queue-wire";
import type { Attachment, QueuedPrompt } from "../common/panel-state/types";

/** A queued prompt sent to the agent that has not answered yet. */
export interface SentPrompt {
  id: string;
  sessionId: string;
  text: string;
  attachments: Attachment[];
  /** Its place among everything queued (held ones go back in this order). */
  seq: number;
  /** The agent echoed it: its turn runs (or ran). */
  started: boolean;
  /** The agent's list had it at least once. */
  listed: boolean;
  /** The user removed it (its `cancelled` answer is final). */
  removed: boolean;
  /** The transcript's item of its echo. */
  itemId?: string;
}

interface Held extends QueuedPrompt {
  seq: number;
}

export class PromptQueue {
  private held: Held[] = [];
  private agentList: QueuedPromptView[] = [];
  private readonly sent = new Map<string, SentPrompt>();
  private seq = 0;

  constructor(private readonly publish: (queue: QueuedPrompt[]) => void) {}

  /** What the panel shows: the agent's list, then the ones it does not have yet, then the held ones. */
  get shown(): QueuedPrompt[] {
    const mine = (id: string) => this.sent.get(id);
    const listed = this.agentList.map((p) => ({ id: p.id, text: p.text, attachments: mine(p.id)?.attachments ?? [] }));
    const inFlight = [...this.sent.values()].filter((p) => !p.started && !p.listed && !p.removed).map(({ id, text, attachments }) => ({ id, text, attachments }));
    return [...listed, ...inFlight, ...this.held.map(({ id, text, attachments }) => ({ id, text, attachments }))];
  }

  private changed(): void {
    this.publish(this.shown);
  }

  hold(text: string, attachments: Attachment[]): void {
    this.held.push({ id: `held-${randomUUID()}`, text, attachments, seq: this.seq++ });
    this.changed();
  }

  /** The held prompts, oldest first, no longer held. */
  takeHeld(): QueuedPrompt[] {
    const taken = this.held.splice(0);
    this.changed();
    return taken;
  }

  /** The next held prompt (an agent that does not queue: one at a time). */
  takeNextHeld(): QueuedPrompt | undefined {
    const next = this.held.shift();
    if (next) this.changed();
    return next;
  }

  get heldCount(): number {
    return this.held.length;
  }

  /** A prompt about to be sent to the agent's queue, under a fresh id. */
  send(sessionId: string, text: string, attachments: Attachment[]): SentPrompt {
    const prompt: SentPrompt = { id: `panel-${randomUUID()}`, sessionId, text, attachments, seq: this.seq++, started: false, listed: false, removed: false };
    this.sent.set(prompt.id, prompt);
    this.changed();
    return prompt;
  }

  get(id: string): SentPrompt | undefined {
    return this.sent.get(id);
  }

  /** The agent answered it (or failed to): forgotten; `requeue` puts it back among the held ones, in its place. */
  answered(id: string, requeue = false): void {
    const prompt = this.sent.get(id);
    if (!prompt) return;
    this.sent.delete(id);
    if (requeue && !prompt.removed) {
      this.held.push({ id: `held-${randomUUID()}`, text: prompt.text, attachments: prompt.attachments, seq: prompt.seq });
      this.held.sort((a, b) => a.seq - b.seq);
    }
    this.changed();
  }

  /** Its echo arrived: it runs. */
  started(id: string, itemId: string | undefined): SentPrompt | undefined {
    const prompt = this.sent.get(id);
    if (!prompt || prompt.started) return undefined;
    prompt.started = true;
    prompt.itemId = itemId;
    this.changed();
    return prompt;
  }

  /** `_hermes/queue/changed` for the open session. */
  agentChanged(prompts: QueuedPromptView[]): void {
    this.agentList = prompts;
    for (const prompt of prompts) {
      const mine = this.sent.get(prompt.id);
      if (mine) mine.listed = true;
    }
    this.changed();
  }

  /**
   * The user removes `id`: a held one goes at once (true); one in the agent's queue is marked
   * (its `cancelled` answer then is final) and the caller asks the agent (false).
   */
  remove(id: string): boolean {
    const at = this.held.findIndex((p) => p.id === id);
    if (at >= 0) {
      this.held.splice(at, 1);
      this.changed();
      return true;
    }
    const mine = this.sent.get(id);
    if (mine) mine.removed = true;
    this.changed();
    return false;
  }

  /** `/queue clear`: every held one goes, every sent one is marked removed. */
  clear(): void {
    this.held = [];
    for (const prompt of this.sent.values()) if (!prompt.started) prompt.removed = true;
    this.changed();
  }

  /** Queued prompts sent and still waiting (not started, not removed). */
  get waiting(): SentPrompt[] {
    return [...this.sent.values()].filter((p) => !p.started && !p.removed);
  }

  /** Another session opens: nothing of the old one is shown or sent again. */
  forget(): void {
    this.held = [];
    this.agentList = [];
    this.sent.clear();
    this.changed();
  }

  /** The agent's list is gone (it restarted, or another session opened). */
  clearAgentList(): void {
    this.agentList = [];
    this.changed();
  }
}


/** A well-formed `_hermes/queue/changed`, or undefined (dropped). */
export function queueChangedParams(raw: unknown): QueueChanged | undefined {
  const parsed = queueChangedSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}
