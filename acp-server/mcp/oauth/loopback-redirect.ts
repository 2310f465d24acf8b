// The redirect end of a sign-in (RFC 8252, loopback): a one-shot HTTP listener on
// 127.0.0.1:PORT/callback that waits for the authorization server to send the browser back with
// `code` and the `state` Hermes sent, answers the browser with a short page, and closes. A
// request without the right state is answered 400 and ignored (another page probing the port
// cannot end the sign-in); an `error` from the server ends it with that error.
import http from "node:http";
import { ToolError } from "../../tools/registry";

export const CALLBACK_PATH = "/callback";

export function redirectUrlFor(port: number): string {
  return `http://127.0.0.1:${port}${CALLBACK_PATH}`;
}

/** A sign-in that did not finish: what the user (and a tool result) reads. */
export class SignInFailedError extends ToolError {
  constructor(message: string) {
    super(message);
    this.name = "SignInFailedError";
  }
}

export interface LoopbackRedirect {
  /** The authorization code, once the browser came back with it. */
  readonly code: Promise<string>;
  close(): void;
}

/**
 * Listens on `port` for one redirect carrying `state`. Rejects (EADDRINUSE) when the port is
 * taken. `code` rejects on the server's error, the signal, or `timeoutMs`.
 */
export async function listenForRedirect(options: { port: number; state: string; serverName: string; timeoutMs: number; signal?: AbortSignal }): Promise<LoopbackRedirect> {
  const { port, state, serverName } = options;
  let settle!: { resolve: (code: string) => void; reject: (error: Error) => void };
  const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  // Nobody may be waiting yet when it fails (the sign-in is shown first): no unhandled rejection.
  code.catch(() => {}); // expected: whoever awaits `code` gets the rejection itself
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (request.method !== "GET" || url.pathname !== CALLBACK_PATH || url.searchParams.get("state") !== state) {
      response.writeHead(400, { "content-type": "text/plain; charset=utf-8" }).end("This is Hermes's sign-in redirect; it was not expecting this request.\n");
      return;
    }
    const error = url.searchParams.get("error");
    const received = url.searchParams.get("code");
    if (error || !received) {
      const why = error ? `${error}${url.searchParams.get("error_description") ? `: ${url.searchParams.get("error_description")}` : ""}` : "no authorization code came back";
      page(response, 400, `Signing in to ${serverName} failed`, `${why}. You can close this tab and try again from Hermes.`);
      finish(() => settle.reject(new SignInFailedError(`Signing in to the MCP server "${serverName}" failed: ${why}.`)));
      return;
    }
    page(response, 200, `Signed in to ${serverName}`, "Hermes has what it needs. You can close this tab.");
    finish(() => settle.resolve(received));
  });
  const timer = setTimeout(() => finish(() => settle.reject(new SignInFailedError(`Signing in to the MCP server "${serverName}" timed out after ${Math.round(options.timeoutMs / 60_000)} minutes.`))), options.timeoutMs);
  timer.unref();
  const onAbort = () => finish(() => settle.reject(new SignInFailedError(`Signing in to the MCP server "${serverName}" was cancelled.`)));
  options.signal?.addEventListener("abort", onAbort, { once: true });
  let finished = false;
  function finish(then: () => void): void {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    // The answer page is written before the listener goes: only new connections are refused.
    server.close();
    server.closeIdleConnections();
    then();
  }
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  // Referenced on purpose: `hermes mcp login` has nothing else keeping it alive while the browser is out.
  if (options.signal?.aborted) onAbort();
  return { code, close: () => finish(() => settle.reject(new SignInFailedError(`Signing in to the MCP server "${serverName}" was stopped.`))) };
}

function page(response: http.ServerResponse, status: number, title: string, text: string): void {
  const escape = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  response
    .writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", connection: "close" })
    .end(`<!doctype html><meta charset="utf-8"><title>${escape(title)}</title><body style="font-family:system-ui;margin:3em"><h1>${escape(title)}</h1><p>${escape(text)}</p></body>\n`);
}
