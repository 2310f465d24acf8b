// The core every scripted model server shares (Chat Completions, Anthropic Messages,
// Responses): a real HTTP server on 127.0.0.1 that records requests, answers from a queue
// of scripted replies, and streams SSE frames with the failure modes tests need (delays,
// a stream that hangs, a dropped connection, a truncated stream, HTTP errors). Each wire
// format only says how a reply becomes frames.
import http from "node:http";
import type { IncomingHttpHeaders } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** What every scripted reply can ask for, whatever the wire format. */
export interface BaseReply {
  /** Delay between SSE frames, so a client can cancel mid-stream. */
  chunkDelayMs?: number;
  /** Send the content frames, then never finish (until the client leaves or close()). */
  hang?: boolean;
  /** Send the content frames, then destroy the socket (a dropped connection). */
  disconnect?: boolean;
  /** Send the content frames, then end the response cleanly but without the closing frames. */
  truncate?: boolean;
  /** Answer with this HTTP error status instead of a stream. */
  status?: number;
  /** Error body for `status` (any JSON value); each format has a default. */
  errorBody?: unknown;
  /** Extra response headers, e.g. `retry-after`. */
  headers?: Record<string, string>;
}

export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. "/v1/messages". */
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (undefined for GET). Loosely typed: tests inspect the raw wire shape. */
  body: any;
}

export interface ScriptedServer<R> {
  /** Base URL including /v1, e.g. http://127.0.0.1:PORT/v1 */
  readonly url: string;
  readonly requests: RecordedRequest[];
  enqueue(...replies: R[]): void;
  /** Replies still queued. */
  readonly pending: number;
  /** Streams whose client disconnected before the stream finished. */
  readonly abortedStreams: number;
  /** Sockets currently open to the server. */
  readonly openConnections: number;
  /** Resolves once at least n model requests were received; rejects after timeoutMs. */
  waitForRequests(n: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  /** Resolves once a received model request matches; rejects after timeoutMs. */
  waitForRequest(match: (request: RecordedRequest) => boolean, timeoutMs?: number): Promise<RecordedRequest>;
  /** Resolves once at least n streams were cut off by their client; rejects after timeoutMs. */
  waitForAbortedStreams(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface ServerSpec<R extends BaseReply> {
  port?: number;
  /** Used when the queue is empty. */
  fallback: R;
  /** Whether this request is a model call (recorded, answered from the queue). */
  isModelCall(method: string, path: string): boolean;
  /** Other routes (GET /v1/models, ...): answer and return true, or return false for a 404. */
  otherRoute?(method: string, path: string, res: http.ServerResponse): boolean;
  /** Default body of an HTTP error reply in this format (a typical message when none is given). */
  errorBody(status: number, message?: string): unknown;
  /** Turns a reply into a response: JSON for non-streaming requests, else frames via `sse`. */
  respond(reply: R, request: RecordedRequest, res: http.ServerResponse, sse: SseStream): Promise<void>;
  /** Computes a reply from the request (replies may carry a handler). */
  resolve?(reply: R, request: RecordedRequest): R | Promise<R>;
}

/** One SSE response with the failure modes of BaseReply. */
export class SseStream {
  private clientGone = false;
  private dropping = false;
  private readonly closed: Promise<void>;

  constructor(
    private readonly res: http.ServerResponse,
    private readonly reply: BaseReply,
    onClientGone: () => void,
  ) {
    this.closed = new Promise((resolve) => res.once("close", resolve));
    res.on("close", () => {
      // "close" before the response finished writing means the client went away mid-stream.
      if (!res.writableFinished && !this.dropping) {
        this.clientGone = true;
        onClientGone();
      }
    });
  }

  open(): void {
    this.res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
      ...this.reply.headers,
    });
  }

  /**
   * Writes the content frames, then applies the reply's failure mode; without one, writes
   * the closing frames and ends the response.
   */
  async play(content: string[], closing: string[]): Promise<void> {
    if (!(await this.write(content, false))) return;
    if (this.reply.disconnect) {
      this.dropping = true; // our own drop is not a client abort
      this.res.socket?.destroy();
      return;
    }
    if (this.reply.hang) return; // left open: the client's abort (or close()) ends it
    if (this.reply.truncate) return void this.res.end();
    if (await this.write(closing, true)) this.res.end();
  }

  /** Resolves once each frame reached the socket (real backpressure); false once the client left. */
  private async write(frames: string[], delayFirst: boolean): Promise<boolean> {
    const delay = this.reply.chunkDelayMs ?? 0;
    for (const [i, frame] of frames.entries()) {
      if ((i > 0 || delayFirst) && delay > 0) await sleep(delay);
      if (this.clientGone) return false;
      await Promise.race([new Promise<void>((resolve) => this.res.write(frame, () => resolve())), this.closed]);
    }
    return !this.clientGone;
  }
}

export async function startScriptedServer<R extends BaseReply>(spec: ServerSpec<R>): Promise<ScriptedServer<R>> {
  const queue: R[] = [];
  const requests: RecordedRequest[] = [];
  const waiters = new Set<() => void>();
  const sockets = new Set<Socket>();
  let abortedStreams = 0;

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, spec.errorBody(500, String(error)));
      else res.destroy();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const method = req.method ?? "GET";
    const path = (req.url ?? "/").split("?")[0].replace(/\/+$/, "");
    if (!spec.isModelCall(method, path)) {
      if (!spec.otherRoute?.(method, path, res)) sendJson(res, 404, spec.errorBody(404, `no route for ${method} ${path}`));
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req));
    } catch {
      sendJson(res, 400, spec.errorBody(400, "request body is not valid JSON"));
      return;
    }
    const request: RecordedRequest = { method, path, headers: req.headers, body };
    requests.push(request);
    for (const wake of waiters) wake();

    let reply = queue.shift() ?? spec.fallback;
    if (spec.resolve) reply = await spec.resolve(reply, request);
    if (reply.status !== undefined && reply.status >= 400) {
      sendJson(res, reply.status, reply.errorBody ?? spec.errorBody(reply.status), reply.headers);
      return;
    }
    await spec.respond(reply, request, res, new SseStream(res, reply, () => {
      abortedStreams++;
      for (const wake of waiters) wake();
    }));
  }

  /** Resolves with `check()` once it gives a value: checked now and whenever a request arrives or a stream is cut off. */
  function until<T>(check: () => T | undefined, timeoutMs: number, what: () => string): Promise<T> {
    return new Promise((resolve, reject) => {
      const wake = () => {
        const value = check();
        if (value === undefined) return;
        cleanup();
        resolve(value);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out waiting for ${what()}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(wake);
      };
      waiters.add(wake);
      wake();
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(spec.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...replies) => void queue.push(...replies),
    get pending() {
      return queue.length;
    },
    get abortedStreams() {
      return abortedStreams;
    },
    get openConnections() {
      return sockets.size;
    },
    waitForRequests(n, timeoutMs = 5000) {
      return until(() => (requests.length >= n ? requests.slice() : undefined), timeoutMs, () => `${n} requests (got ${requests.length})`);
    },
    waitForRequest(match, timeoutMs = 5000) {
      return until(() => requests.find(match), timeoutMs, () => `a matching request (got ${requests.length})`);
    },
    waitForAbortedStreams(n, timeoutMs = 5000) {
      return until(() => (abortedStreams >= n ? true : undefined), timeoutMs, () => `${n} aborted streams (got ${abortedStreams})`).then(() => {});
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Hanging streams and keep-alive sockets would otherwise hold close() open forever.
        server.closeAllConnections();
      });
    },
  };
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** `event: <name>\ndata: <json>\n\n`, as Anthropic and the Responses API frame their streams. */
export function namedEvent(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Splits text into word-sized pieces of at most 8 characters (code points, never halving an emoji). */
export function splitIntoChunks(text: string): string[] {
  const pieces: string[] = [];
  for (const word of text.match(/\S+\s*|\s+/g) ?? []) {
    const chars = Array.from(word);
    for (let i = 0; i < chars.length; i += 8) pieces.push(chars.slice(i, i + 8).join(""));
  }
  return pieces;
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
