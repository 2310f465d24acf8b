// The one place where Hermes's errors become JSON-RPC errors. Every handler of the agent app
// goes through `withErrorMapping`, so none can answer with a raw exception: an AgentError
// (util/agent-error.ts) maps by its category; a request cancelled by the client answers
// -32800 as the SDK would; anything else is a bug, logged here with the method, the session
// and the stack, and answered with one generic internal error whose text says nothing about
// Hermes's internals (paths, keys or a peer's words may be in a raw message).
import * as acp from "@agentclientprotocol/sdk/unstable";
import { isAgentError, type AnyAgentError } from "../util/agent-error";
import type { Logger } from "../util/log";

/** What the log line of an unexpected error says about the request. */
export interface RequestScope {
  method: string;
  sessionId?: string;
  /** The request's signal: an abort error after it fired is the client's cancel, not a failure. */
  signal?: AbortSignal;
}

/** The message of every unexpected error (JSON-RPC -32603 "Internal error: …"). */
export const UNEXPECTED_ERROR_MESSAGE = "Hermes hit an unexpected problem; the details are in its log (run `hermes logs`).";

/** `error` as the JSON-RPC error a handler answers with. */
export function toRequestError(error: unknown, scope: RequestScope, log: Logger): acp.RequestError {
  if (scope.signal?.aborted && isAbortError(error)) return cancelledRequest(scope.signal.reason);
  if (isAgentError(error)) return fromAgentError(error);
  log.error("request failed with an unexpected error", {
    method: scope.method,
    ...(scope.sessionId ? { sessionId: scope.sessionId } : {}),
    error,
    stack: error instanceof Error ? error.stack : undefined,
  });
  return acp.RequestError.internalError({}, UNEXPECTED_ERROR_MESSAGE);
}

/** Each category's code; the messages and data are those the handlers answered before the union. */
export function fromAgentError(error: AnyAgentError): acp.RequestError {
  switch (error.category) {
    case "invalid_params":
      return acp.RequestError.invalidParams(error.data, error.message);
    case "invalid_request":
      return acp.RequestError.invalidRequest(error.data, error.message);
    case "unknown_session":
      return acp.RequestError.sessionNotFound(error.data.sessionId);
    case "not_found":
      return acp.RequestError.resourceNotFound(error.data.uri);
    case "auth_required":
      // The whole reason is in the message: editors show the message, not `data`.
      return acp.RequestError.authRequired(error.data, error.message);
    case "cancelled":
      return acp.RequestError.requestCancelled(error.data, error.message);
    case "provider":
      return acp.RequestError.internalError({ kind: error.data.kind, status: error.data.status }, `Model request failed: ${error.message}`);
    case "busy":
    case "tool":
    case "config":
    case "limit_exceeded":
    case "internal":
      return acp.RequestError.internalError(error.data, error.message);
  }
}

// The JSON-RPC prefix of each code that the edge puts before a union member's own message.
const SDK_PREFIX = /^(Internal error|Invalid params|Invalid request|Authentication required|Request cancelled): /;

/**
 * An error the edge answered, as one line for a terminal (`hermes chat` is a client of this
 * edge): the union member's own message, without the JSON-RPC label in front of it.
 */
export function requestErrorText(error: unknown): string {
  const { code, message, data } = (error ?? {}) as { code?: unknown; message?: unknown; data?: { sessionId?: unknown } };
  if (code === -32002 && typeof data?.sessionId === "string") return `session ${data.sessionId} not found`;
  const text = typeof message === "string" ? message : String(error);
  return text.replace(SDK_PREFIX, "").replace(/^Model request failed: /, "the model request failed: ");
}

/**
 * Makes every handler registered on `app` from here on answer through toRequestError. Handlers
 * are wrapped as they are registered, so a handler added later cannot forget it.
 */
export function withErrorMapping(app: acp.AgentApp, log: Logger): acp.AgentApp {
  const onRequest = app.onRequest.bind(app) as (...args: unknown[]) => acp.AgentApp;
  const onNotification = app.onNotification.bind(app) as (...args: unknown[]) => acp.AgentApp;
  // The handler is always the last argument (a params parser may come before it).
  Object.assign(app, {
    onRequest(...args: unknown[]) {
      const handler = args.pop() as Handler;
      onRequest(...args, mappedRequest(handler, log));
      return app;
    },
    onNotification(...args: unknown[]) {
      const handler = args.pop() as Handler;
      onNotification(...args, loggedNotification(handler, log));
      return app;
    },
  });
  return app;
}

type Handler = (context: { method: string; params: unknown; signal: AbortSignal }) => unknown;

function mappedRequest(handler: Handler, log: Logger): Handler {
  return async (context) => {
    try {
      return await handler(context);
    } catch (error) {
      throw toRequestError(error, scopeOf(context), log);
    }
  };
}

/** A notification has no answer: its failure is only logged (an AgentError as a warning). */
function loggedNotification(handler: Handler, log: Logger): Handler {
  return async (context) => {
    try {
      await handler(context);
    } catch (error) {
      const scope = scopeOf(context);
      if (isAgentError(error)) log.warn(`${scope.method} failed`, { sessionId: scope.sessionId, category: error.category, message: error.message });
      else toRequestError(error, scope, log);
    }
  };
}

function scopeOf(context: { method: string; params: unknown; signal: AbortSignal }): RequestScope {
  const sessionId = (context.params as { sessionId?: unknown } | undefined)?.sessionId;
  return { method: context.method, signal: context.signal, ...(typeof sessionId === "string" ? { sessionId } : {}) };
}

/** The SDK's own rule: an abort error once the request's signal fired is a cancelled request. */
function isAbortError(error: unknown): boolean {
  const candidate = error as { name?: unknown; code?: unknown } | null;
  return typeof candidate === "object" && candidate !== null && (candidate.name === "AbortError" || candidate.code === "ABORT_ERR");
}

function cancelledRequest(reason: unknown): acp.RequestError {
  return reason instanceof acp.RequestError && reason.code === -32800 ? reason : acp.RequestError.requestCancelled(reason);
}
