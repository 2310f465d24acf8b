// The session store's failures, as a closed set the ACP edge maps to JSON-RPC errors.

export class SessionStoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "SessionStoreError";
  }
}

/** Session ids name files, so anything but [A-Za-z0-9_-]{1,128} is refused. */
export class InvalidSessionIdError extends SessionStoreError {
  constructor(id: string) {
    super(`invalid session id ${JSON.stringify(id.slice(0, 200))}: expected 1-128 characters of A-Z, a-z, 0-9, _ or -`);
    this.name = "InvalidSessionIdError";
  }
}

export class SessionExistsError extends SessionStoreError {
  constructor(id: string) {
    super(`session ${id} already exists`);
    this.name = "SessionExistsError";
  }
}

export class SessionNotFoundError extends SessionStoreError {
  constructor(id: string) {
    super(`session ${id} not found`);
    this.name = "SessionNotFoundError";
  }
}

/** A session/list cursor that this store did not hand out. */
export class InvalidCursorError extends SessionStoreError {
  constructor() {
    super("invalid cursor");
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
