// The closed set of errors Hermes itself raises. Every layer below the ACP edge throws an
// AgentError (or one of its subclasses that carry behaviour: ProviderError, ToolError,
// SessionStoreError, ...), naming its category, a message fit to show the user, and data
// for clients. The edge maps each category to one JSON-RPC error (acp/error-map.ts); the
// CLI prints them with agentErrorText. Anything else that escapes is a bug: the edge logs
// it with its stack and answers one generic internal error, never the raw text.
//
// The discriminator is `category`, not `kind`: ProviderError's `kind` is its failure
// classification (rate_limit, auth, ...), which decides retries and fallbacks.

/** What each category carries for the client, beside its message. */
export interface AgentErrorData {
  /** A request's parameters (or what they name) are wrong: fixable by the caller. */
  invalid_params: Record<string, unknown>;
  /** The request makes no sense in the current state (a closed session, ...). */
  invalid_request: Record<string, unknown>;
  /** No such session (in this process, or on disk). */
  unknown_session: { sessionId: string };
  /** A file or other resource the request names does not exist. */
  not_found: { uri: string };
  /** Hermes has no usable model: sign in (authenticate) or configure one. */
  auth_required: { authRequired: true; reason: string; methods: string[] };
  /** Another process or request holds what this one needs; try again later. */
  busy: Record<string, unknown>;
  /** The user or the client cancelled it. */
  cancelled: Record<string, unknown>;
  /** The model request failed; `kind` is the provider failure's classification. */
  provider: { kind: string; status?: number };
  /** A tool failed in a way the model should read (normally a tool result, not an answer). */
  tool: Record<string, unknown>;
  /** config.yaml, .env or Hermes's own files are wrong or cannot be written. */
  config: Record<string, unknown>;
  /** A size or count limit was reached. */
  limit_exceeded: Record<string, unknown>;
  /** Hermes knows what failed but the caller cannot fix it; the message says what. */
  internal: Record<string, unknown>;
}

export type AgentErrorCategory = keyof AgentErrorData;

export const AGENT_ERROR_CATEGORIES: readonly AgentErrorCategory[] = [
  "invalid_params",
  "invalid_request",
  "unknown_session",
  "not_found",
  "auth_required",
  "busy",
  "cancelled",
  "provider",
  "tool",
  "config",
  "limit_exceeded",
  "internal",
];

export class AgentError<C extends AgentErrorCategory = AgentErrorCategory> extends Error {
  constructor(
    readonly category: C,
    message: string,
    readonly data: AgentErrorData[C],
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "AgentError";
  }
}

/** The union over categories, so a `switch (error.category)` narrows `data`. */
export type AnyAgentError = { [C in AgentErrorCategory]: AgentError<C> }[AgentErrorCategory];

export function isAgentError(error: unknown): error is AnyAgentError {
  return error instanceof AgentError;
}

// Short constructors for the common cases, so throw sites read as what went wrong.
export const invalidParams = (message: string, data: Record<string, unknown> = {}) => new AgentError("invalid_params", message, data);
export const invalidRequest = (message: string, data: Record<string, unknown> = {}) => new AgentError("invalid_request", message, data);
export const unknownSession = (sessionId: string) => new AgentError("unknown_session", `session ${sessionId} not found`, { sessionId });
export const notFound = (uri: string) => new AgentError("not_found", `not found: ${uri}`, { uri });

/** One line for a terminal: the message of an AgentError, a labelled message for anything else. */
export function agentErrorText(error: unknown): string {
  if (isAgentError(error)) return error.message;
  if (error instanceof Error) return `unexpected error: ${error.message}`;
  return `unexpected error: ${String(error)}`;
}
