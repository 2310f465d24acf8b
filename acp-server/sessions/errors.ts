// The session store's failures: members of the agent error union (util/agent-error.ts), so the
// ACP edge maps them like any other (an unknown id is -32002, a bad id or cursor -32602).
import { AgentError, type AgentErrorCategory, type AgentErrorData } from "../util/agent-error";

export class SessionStoreError<C extends AgentErrorCategory = AgentErrorCategory> extends AgentError<C> {
  constructor(category: C, message: string, data: AgentErrorData[C], options?: { cause?: unknown }) {
    super(category, message, data, options);
    this.name = "SessionStoreError";
  }
}

/** Session ids name files, so anything but [A-Za-z0-9_-]{1,128} is refused. */
export class InvalidSessionIdError extends SessionStoreError<"invalid_params"> {
  constructor(id: string) {
    const shown = JSON.stringify(id.slice(0, 200));
    super("invalid_params", `invalid session id ${shown}: expected 1-128 characters of A-Z, a-z, 0-9, _ or -`, { sessionId: id.slice(0, 200) });
    this.name = "InvalidSessionIdError";
  }
}

export class SessionExistsError extends SessionStoreError<"invalid_request"> {
  constructor(id: string) {
    super("invalid_request", `session ${id} already exists`, { sessionId: id });
    this.name = "SessionExistsError";
  }
}

export class SessionNotFoundError extends SessionStoreError<"unknown_session"> {
  constructor(id: string) {
    super("unknown_session", `session ${id} not found`, { sessionId: id });
    this.name = "SessionNotFoundError";
  }
}

/** A session/list cursor that this store did not hand out. */
export class InvalidCursorError extends SessionStoreError<"invalid_params"> {
  constructor() {
    super("invalid_params", "invalid cursor", {});
    this.name = "InvalidCursorError";
  }
}

const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;

export function isValidSessionId(id: string): boolean {
  return SESSION_ID.test(id);
}

export function assertValidSessionId(id: string): void {
  if (!isValidSessionId(id)) throw new InvalidSessionIdError(id);
}
