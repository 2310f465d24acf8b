// The application as a front end holds it: the runtime (loaded once, after the client is greeted,
// and again after a sign-in or when it had no usable model), the live sessions, the order prompts
// arrived in, and the gate that lets a session being opened go before the background warm-up.
// Front ends (the ACP edge) call this and convert; none of it knows a protocol.
import type { AgentRuntime } from "../runtime/runtime";
import type { ElicitationModes } from "../tools/elicitation";
import type { Logger } from "../util/log";
import { quietGate } from "../util/quiet-gate";
import { ArrivalOrder } from "./arrival-order";
import { SessionHub } from "./session-hub";

export interface HermesAppOptions {
  /** Loads configuration and the model; called on first use, and again after reset(). */
  loadRuntime: () => Promise<AgentRuntime>;
  /** Recorded with new sessions: "acp" (an editor) or "chat" (the terminal). */
  source: string;
  log: Logger;
  /** The elicitations the front end answers (read when a session's MCP servers start). */
  elicitation?: () => ElicitationModes;
}

export class HermesApp {
  private current?: Promise<AgentRuntime>;
  readonly hub: SessionHub;
  /** Prompts reach a session's queue in the order they arrived, whatever their set-up awaits. */
  readonly arrivals = new ArrivalOrder();
  /** Sessions being opened: the warm-up pauses for them (they are what the user waits on). */
  readonly opening = quietGate();

  constructor(private readonly options: HermesAppOptions) {
    this.hub = new SessionHub({ runtime: () => this.runtime(), source: options.source, log: options.log, elicitation: options.elicitation });
  }

  runtime(): Promise<AgentRuntime> {
    return (this.current ??= this.options.loadRuntime());
  }

  /** The next use loads the runtime again (a sign-in or sign-out changed the key or model). */
  reset(): void {
    this.current = undefined;
  }

  /** The runtime, or the auth-required error while it has no usable model. */
  async usableRuntime(): Promise<AgentRuntime> {
    let current = await this.runtime();
    if (!current.model.ok) {
      // Set up meanwhile (`hermes setup` in a terminal, config.yaml edited by hand): read it again.
      this.reset();
      current = await this.runtime();
    }
    if (!current.model.ok) throw (await import("./sign-in")).authRequiredError(current);
    return current;
  }

  /**
   * What the first session/new, then the first prompt, need, prepared while the client reads the
   * greeting (runtime/runtime.ts, prepare): one step at a time, each waiting while a session is
   * being opened. Resolves when done; a failure is logged and ends the warm-up.
   */
  async warmUp(cwd: string): Promise<void> {
    try {
      const current = await this.runtime();
      await current.prepare(cwd, () => this.opening.quiet());
    } catch (error) {
      this.options.log.error("loading the runtime failed", { error });
    }
    await this.opening.quiet();
  }

  /** /rollback N --conversation: a fork of the session before turn N + 1 (the old branch stays); the new session's id. */
  async rewind(sessionId: string, turns: number): Promise<string> {
    const parent = this.hub.get(sessionId);
    // Our own fork on the same connection: the roots the client gave this session stay.
    const { session } = await this.hub.fork(sessionId, parent.agent.cwd, parent.mcpServers, { turns }, parent.agent.extraRoots);
    return session.id;
  }
}
