// session/request_permission as an inline card in the panel. When no panel is visible a
// notification asks as well; whichever answers first wins. Cancelling a turn answers every
// pending request "cancelled". No vscode import: the notification is passed in.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import type { ChatAction } from "../webview-ui/state/actions";

export type Notify = (title: string, optionNames: string[]) => Promise<string | undefined>;

interface Pending {
  options: acp.PermissionOption[];
  resolve(response: acp.RequestPermissionResponse): void;
}

export class PermissionBroker {
  private readonly pending = new Map<string, Pending>();
  private next = 1;

  constructor(
    private readonly dispatch: (action: ChatAction) => void,
    private readonly notify: Notify,
    private readonly panelVisible: () => boolean,
  ) {}

  get size(): number {
    return this.pending.size;
  }

  request(params: acp.RequestPermissionRequest, signal?: AbortSignal): Promise<acp.RequestPermissionResponse> {
    const id = `perm-${this.next++}`;
    const answer = new Promise<acp.RequestPermissionResponse>((resolve) => this.pending.set(id, { options: params.options, resolve }));
    // The reducer's types come from the stable schema; the unstable one is a superset.
    this.dispatch({ type: "permissionRequested", id, toolCall: params.toolCall, options: params.options });
    signal?.addEventListener("abort", () => this.resolve(id, "cancelled"), { once: true });
    if (!this.panelVisible()) {
      const title = params.toolCall.title ? `Hermes: ${params.toolCall.title}` : "Hermes needs your permission";
      this.notify(title, params.options.map((o) => o.name)).then(
        (name) => {
          const option = params.options.find((o) => o.name === name);
          if (option) this.answer(id, option.optionId);
        },
        () => {},
      );
    }
    return answer;
  }

  /**
   * The panel's (or the notification's) answer; false when that request is no longer open.
   * `reason`: the user's words with a rejection, for the model. ACP's outcome has no text field,
   * so it travels in the response's `_meta` ("hermes/reason"); it is ignored with an allow.
   */
  answer(id: string, optionId: string, reason?: string): boolean {
    const entry = this.pending.get(id);
    const option = entry?.options.find((o) => o.optionId === optionId);
    if (!entry || !option) return false;
    const words = option.kind.startsWith("reject") ? reason?.trim() : undefined;
    return this.resolve(id, optionId, words || undefined);
  }

  /** Answers every open request "cancelled" (turn cancelled, session closed, agent gone). */
  cancelAll(): void {
    for (const id of [...this.pending.keys()]) this.resolve(id, "cancelled");
  }

  private resolve(id: string, outcome: string, reason?: string): boolean {
    const entry = this.pending.get(id);
    if (!entry) return false;
    this.pending.delete(id);
    if (outcome === "cancelled") entry.resolve({ outcome: { outcome: "cancelled" } });
    else entry.resolve({ outcome: { outcome: "selected", optionId: outcome }, ...(reason ? { _meta: { "hermes/reason": reason } } : {}) });
    const kind = entry.options.find((o) => o.optionId === outcome)?.kind;
    this.dispatch({ type: "permissionResolved", id, outcome, ...(kind ? { optionKind: kind } : {}), ...(reason ? { reason } : {}) });
    return true;
  }
}
