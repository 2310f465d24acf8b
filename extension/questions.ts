// The agent's questions (elicitation/create; Hermes's clarify tool) as a card in the panel: in
// form mode one field, a choice from titled options or a line of text; in URL mode (an MCP
// server's sign-in page) the message with "Open in browser", which opens the link outside the
// panel and answers accept. The card's answer, a decline, or the turn's cancellation answers the
// request; a form this panel cannot show (several fields, types other than text) is declined at
// once, so the agent goes on. No vscode import: opening a link is the host's (`openUrl`).
import type * as acp from "@agentclientprotocol/sdk/unstable";
import type { ChatAction } from "../common/panel-state/actions";
import type { QuestionItem } from "../common/panel-state/types";

interface Pending {
  field: string;
  choices?: QuestionItem["choices"];
  /** URL mode: the page "Open in browser" opens. */
  url?: string;
  resolve(response: acp.CreateElicitationResponse): void;
}

type StringField = { type?: string; title?: string | null; enum?: string[] | null; oneOf?: { const: string; title: string; description?: string | null }[] | null };

/** Ids are unique in the extension host, not per chat: a diff editor or a late message naming one reaches one chat's card only. */
let nextId = 1;

export class QuestionBroker {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly dispatch: (action: ChatAction) => void,
    /** Opens a web page in the user's browser (URL mode); absent: URL questions are declined. */
    private readonly openUrl?: (url: string) => void,
  ) {}

  /** Which modes the panel answers (advertised in initialize). */
  get modes(): { form: Record<string, never>; url?: Record<string, never> } {
    return this.openUrl ? { form: {}, url: {} } : { form: {} };
  }

  request(params: acp.CreateElicitationRequest, signal?: AbortSignal): Promise<acp.CreateElicitationResponse> {
    const link = params as { mode: string; message: string; url?: string };
    if (link.mode === "url") return this.requestUrl(link.message, link.url, signal);
    const form = params as { mode: string; message: string; requestedSchema?: { properties?: Record<string, StringField> } };
    const fields = Object.entries(form.requestedSchema?.properties ?? {});
    const [entry] = fields;
    if (form.mode !== "form" || fields.length !== 1 || !entry || entry[1].type !== "string") return Promise.resolve({ action: "decline" });
    const [field, schema] = entry;
    const choices = schema.oneOf?.map((o) => ({ value: o.const, title: o.title, ...(o.description ? { description: o.description } : {}) })) ?? schema.enum?.map((value) => ({ value, title: value }));
    const id = `question-${nextId++}`;
    const answer = new Promise<acp.CreateElicitationResponse>((resolve) => this.pending.set(id, { field, ...(choices?.length ? { choices } : {}), resolve }));
    this.dispatch({ type: "questionAsked", question: { id, message: form.message, field, ...(choices?.length ? { choices } : {}) } });
    signal?.addEventListener("abort", () => this.close(id, { action: "cancel" }, "cancelled"), { once: true });
    return answer;
  }

  /** A page to open (only http and https: anything else is declined unseen). */
  private requestUrl(message: string, url: string | undefined, signal?: AbortSignal): Promise<acp.CreateElicitationResponse> {
    if (!this.openUrl || !url || !/^https?:\/\//i.test(url)) return Promise.resolve({ action: "decline" });
    const id = `question-${nextId++}`;
    const host = new URL(url).host;
    const choices = [{ value: "open", title: "Open in browser", description: host }];
    const answer = new Promise<acp.CreateElicitationResponse>((resolve) => this.pending.set(id, { field: "url", choices, url, resolve }));
    this.dispatch({ type: "questionAsked", question: { id, message, field: "url", choices } });
    signal?.addEventListener("abort", () => this.close(id, { action: "cancel" }, "cancelled"), { once: true });
    return answer;
  }

  /** The card's answer (`answer` undefined: declined); false when that question is no longer open or the answer is not a choice. */
  answer(id: string, answer: string | undefined): boolean {
    const entry = this.pending.get(id);
    if (!entry) return false;
    const text = answer?.trim();
    if (!text) return this.close(id, { action: "decline" }, "declined");
    if (entry.url) {
      if (text !== "open") return false;
      this.openUrl?.(entry.url);
      return this.close(id, { action: "accept" }, `Opened ${new URL(entry.url).host} in your browser`, true);
    }
    if (entry.choices && !entry.choices.some((choice) => choice.value === text)) return false;
    const shown = entry.choices?.find((choice) => choice.value === text)?.title ?? text;
    return this.close(id, { action: "accept", content: { [entry.field]: text } }, shown, true);
  }

  /**
   * Every open question answered "cancel" (turn cancelled, session switched, agent gone); `note`
   * says why on the card when nobody decided ("Cancelled: the agent restarted before you answered").
   */
  cancelAll(note?: string): void {
    for (const id of [...this.pending.keys()]) this.close(id, { action: "cancel" }, "cancelled", false, note);
  }

  private close(id: string, response: acp.CreateElicitationResponse, text: string, answered = false, note?: string): boolean {
    const entry = this.pending.get(id);
    if (!entry) return false;
    this.pending.delete(id);
    entry.resolve(response);
    this.dispatch({ type: "questionResolved", id, answered, text, ...(note ? { note } : {}) });
    return true;
  }
}
