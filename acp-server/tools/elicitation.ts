// An elicitation as tools and the runtime see it (no protocol here): a form restricted to flat
// JSON-schema fields (MCP's and ACP 1.21's shared subset), or a URL the user opens in a browser
// (a sign-in, a payment), whose end the agent announces later with its elicitation id.

/** Which kinds of question the user's front end can answer. */
export interface ElicitationModes {
  form: boolean;
  url: boolean;
}

export type ElicitationValue = string | number | boolean | string[];

export type ElicitationAsk =
  | { mode: "form"; message: string; requestedSchema: { type: "object"; properties: Record<string, Record<string, unknown>>; required?: string[] } }
  | { mode: "url"; message: string; url: string; elicitationId: string };

/** The user's answer, as MCP and ACP both spell it; `reason` (ours) says why nobody was asked. */
export type ElicitationAnswer =
  | { action: "accept"; content?: Record<string, ElicitationValue> }
  | { action: "decline"; reason?: string }
  | { action: "cancel"; reason?: string };

/** Nobody can answer here (a subagent, a headless run, an editor without elicitation). */
export function declined(reason: string): ElicitationAnswer {
  return { action: "decline", reason };
}

/** What a tool asks the user through (ToolContext.elicitation): the question, and a URL flow's end. */
export interface UserElicitation {
  /** `signal`: withdraws the question (besides the turn's own cancellation). */
  ask(ask: ElicitationAsk, signal?: AbortSignal): Promise<ElicitationAnswer>;
  /** The URL-mode elicitation `elicitationId` ended (the user may close its prompt). */
  complete(elicitationId: string): Promise<void>;
}
