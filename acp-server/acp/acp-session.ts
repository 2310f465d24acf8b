// An ACP session: the agent's session plus what only the protocol edge knows
// (the MCP servers the client passed, the prompt that is running and its cancel switch).
import * as acp from "@agentclientprotocol/sdk";
import type { AgentSession } from "../agent/session";

export class AcpSession {
  private running?: AbortController;

  constructor(
    readonly agent: AgentSession,
    readonly mcpServers: acp.McpServer[],
  ) {}

  get id(): string {
    return this.agent.id;
  }

  /** Starts a prompt turn; ACP allows one at a time per session. */
  beginTurn(requestSignal: AbortSignal): AbortController {
    if (this.running) {
      throw acp.RequestError.invalidRequest({ sessionId: this.id }, "a prompt is already running in this session; cancel it first");
    }
    const controller = new AbortController();
    // $/cancel_request on the prompt request cancels the turn like session/cancel does.
    requestSignal.addEventListener("abort", () => controller.abort(new Error("prompt request cancelled")), { once: true });
    this.running = controller;
    return controller;
  }

  endTurn(controller: AbortController): void {
    if (this.running === controller) this.running = undefined;
  }

  cancel(): void {
    this.running?.abort(new Error("cancelled by the client"));
  }
}
