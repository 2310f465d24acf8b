// A scripted OpenAI Chat Completions server for tests and benchmarks. It speaks the real
// wire format (SSE `data: {chunk}\n\n` frames ending in `data: [DONE]`) over real HTTP, so
// the provider under test runs its real SDK code path: no mocking anywhere.
import http from "node:http";
import { after, before } from "node:test";
import type { IncomingHttpHeaders } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface ScriptedToolCall {
  name: string;
  /** An object is sent as JSON.stringify(object); a string is sent verbatim (e.g. broken JSON). */
  arguments: unknown;
  /** Defaults to a generated id; "" sends no id at all (some servers do that). */
  id?: string;
}

export interface ScriptedUsage {
  prompt_tokens: number;
  completion_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number };
  completion_tokens_details?: { reasoning_tokens?: number };
}

export interface ScriptedReply {
  /** Streamed as several `content` deltas. */
  text?: string;
  /** Streamed first, as `reasoning_content` deltas (DeepSeek / vLLM style). */
  reasoning?: string;
  /** Streamed as `tool_calls` deltas; several calls are interleaved by index. */
  toolCalls?: ScriptedToolCall[];
  /** Delay between SSE chunks, so a client can cancel mid-stream. */
  chunkDelayMs?: number;
  /** Stream every delta, then never finish (no finish_reason, no [DONE]) until the client leaves. */
  hang?: boolean;
  /** Stream every delta, then destroy the socket without finishing (a dropped connection). */
  disconnect?: boolean;
  /** Reply with this HTTP error status and an OpenAI-style `{error:{message,type}}` body. */
  status?: number;
  /** Error body to send instead of the default one (any JSON value). */
  errorBody?: unknown;
  /** Extra response headers, e.g. `retry-after-ms` to make SDK retries fast. */
  headers?: Record<string, string>;
  /** Final usage chunk (sent when the request asked for stream_options.include_usage). */
  usage?: ScriptedUsage;
  /** Defaults to "tool_calls" when there are toolCalls, else "stop". */
  finishReason?: string;
  /** Computes the reply from the request (for echo-style or stateful scripts). */
  handler?: (request: RecordedRequest) => ScriptedReply | Promise<ScriptedReply>;
}

export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. "/v1/chat/completions". */
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (undefined for GET). Loosely typed: tests inspect the raw wire shape. */
  body: any;
}

export interface ScriptedModelOptions {
  /** Model id reported in responses when the request names none, and by GET /v1/models. */
  model?: string;
  /** Used when the queue is empty; defaults to the text "(no scripted reply)". */
  fallback?: ScriptedReply;
  /** Port to listen on (default 0: any free port). */
  port?: number;
}

export interface ScriptedModel {
  /** Base URL including /v1, e.g. http://127.0.0.1:PORT/v1 */
  readonly url: string;
  readonly requests: RecordedRequest[];
  enqueue(...replies: ScriptedReply[]): void;
  /** Replies still queued. */
  readonly pending: number;
  /** Streams whose client disconnected before the stream finished. */
  readonly abortedStreams: number;
  /** Sockets currently open to the server. */
  readonly openConnections: number;
  /** Resolves once at least n chat requests were received; rejects after timeoutMs. */
  waitForRequests(n: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  close(): Promise<void>;
}

const NO_REPLY: ScriptedReply = { text: "(no scripted reply)" };

export async function startScriptedModel(options: ScriptedModelOptions = {}): Promise<ScriptedModel> {
  const defaultModel = options.model ?? "scripted-model";
  const queue: ScriptedReply[] = [];
  const requests: RecordedRequest[] = [];
  const waiters = new Set<() => void>();
  const sockets = new Set<Socket>();
  let abortedStreams = 0;
  let counter = 0;

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, errorJson(500, String(error)));
      else res.destroy();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = (req.url ?? "/").split("?")[0].replace(/\/+$/, "");
    if (req.method === "GET" && (path === "/v1/models" || path === "/models")) {
      const created = Math.floor(Date.now() / 1000);
      sendJson(res, 200, { object: "list", data: [{ id: defaultModel, object: "model", created, owned_by: "scripted" }] });
      return;
    }
    if (req.method !== "POST" || (path !== "/v1/chat/completions" && path !== "/chat/completions")) {
      sendJson(res, 404, errorJson(404, `no route for ${req.method} ${path}`));
      return;
    }
    const raw = await readBody(req);
    let body: RecordedRequest["body"];
    try {
      body = JSON.parse(raw);
    } catch {
      sendJson(res, 400, errorJson(400, "request body is not valid JSON"));
      return;
    }
    const recorded: RecordedRequest = { method: req.method, path, headers: req.headers, body };
    requests.push(recorded);
    for (const wake of waiters) wake();

    let reply = queue.shift() ?? options.fallback ?? NO_REPLY;
    if (reply.handler) reply = await reply.handler(recorded);
    const model = typeof body?.model === "string" ? body.model : defaultModel;
    const id = `chatcmpl-scripted-${++counter}`;
    const extraHeaders = reply.headers ?? {};

    if (reply.status !== undefined && reply.status >= 400) {
      sendJson(res, reply.status, reply.errorBody ?? errorJson(reply.status), extraHeaders);
      return;
    }
    if (body?.stream !== true) {
      sendJson(res, 200, completionJson(id, model, reply, body), extraHeaders);
      return;
    }
    await streamReply(res, id, model, reply, body, extraHeaders);
  }

  async function streamReply(
    res: http.ServerResponse,
    id: string,
    model: string,
    reply: ScriptedReply,
    body: RecordedRequest["body"],
    extraHeaders: Record<string, string>,
  ): Promise<void> {
    let clientGone = false;
    let dropping = false;
    res.on("close", () => {
      // "close" before the response finished writing means the client went away mid-stream.
      if (!res.writableFinished && !dropping) {
        clientGone = true;
        abortedStreams++;
      }
    });
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
      ...extraHeaders,
    });
    const includeUsage = body?.stream_options?.include_usage === true;
    const created = Math.floor(Date.now() / 1000);
    const frame = (choices: unknown[], usage?: unknown) => {
      // Real OpenAI sends `usage: null` on every chunk once include_usage is on.
      const chunk = { id, object: "chat.completion.chunk", created, model, system_fingerprint: null, choices };
      return `data: ${JSON.stringify(includeUsage ? { ...chunk, usage: usage ?? null } : chunk)}\n\n`;
    };
    const deltaFrame = (delta: object, finishReason: string | null = null) =>
      frame([{ index: 0, delta, logprobs: null, finish_reason: finishReason }]);

    const frames = [deltaFrame({ role: "assistant", content: "" })];
    for (const piece of splitIntoChunks(reply.reasoning ?? "")) frames.push(deltaFrame({ reasoning_content: piece }));
    for (const piece of splitIntoChunks(reply.text ?? "")) frames.push(deltaFrame({ content: piece }));
    for (const toolDelta of toolCallDeltas(reply.toolCalls ?? [], id)) frames.push(deltaFrame({ tool_calls: [toolDelta] }));

    // Resolves once the frame reached the socket (or the socket is gone): a disconnect right
    // after must not discard frames still buffered, and a slow reader gets real backpressure.
    const closed = new Promise<void>((resolve) => res.once("close", resolve));
    const write = (text: string) => Promise.race([new Promise<void>((resolve) => res.write(text, () => resolve())), closed]);
    const delay = reply.chunkDelayMs ?? 0;
    for (const [i, text] of frames.entries()) {
      if (i > 0 && delay > 0) await sleep(delay);
      if (clientGone) return;
      await write(text);
    }
    if (reply.disconnect) {
      dropping = true; // our own drop is not a client abort
      res.socket?.destroy();
      return;
    }
    if (reply.hang) return; // left open: the client's abort (or close()) ends it

    const finish = reply.finishReason ?? (reply.toolCalls?.length ? "tool_calls" : "stop");
    const tail = [deltaFrame({}, finish)];
    if (includeUsage) tail.push(frame([], usageJson(reply, body)));
    tail.push("data: [DONE]\n\n");
    for (const text of tail) {
      if (delay > 0) await sleep(delay);
      if (clientGone) return;
      await write(text);
    }
    res.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
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
      return new Promise((resolve, reject) => {
        const check = () => {
          if (requests.length < n) return;
          cleanup();
          resolve(requests.slice());
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out waiting for ${n} requests (got ${requests.length})`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
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

/** Splits text into word-sized pieces of at most 8 characters (code points, never halving an emoji). */
export function splitIntoChunks(text: string): string[] {
  const pieces: string[] = [];
  for (const word of text.match(/\S+\s*|\s+/g) ?? []) {
    const chars = Array.from(word);
    for (let i = 0; i < chars.length; i += 8) pieces.push(chars.slice(i, i + 8).join(""));
  }
  return pieces;
}

/** Tool call deltas: id + name first, then argument pieces, round-robin across calls by index. */
function toolCallDeltas(calls: ScriptedToolCall[], responseId: string): object[] {
  const perCall = calls.map((call, index) => {
    const args = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments ?? {});
    const id = call.id ?? `call_${responseId.slice(-6)}_${index}`;
    const head = { index, ...(id ? { id } : {}), type: "function", function: { name: call.name, arguments: "" } };
    const rest = splitArgs(args).map((piece) => ({ index, function: { arguments: piece } }));
    return [head, ...rest];
  });
  const out: object[] = [];
  for (let step = 0; perCall.some((d) => step < d.length); step++) {
    for (const deltas of perCall) if (step < deltas.length) out.push(deltas[step]);
  }
  return out;
}

/** JSON arguments cut at fixed widths, so pieces split strings and keys mid-token like real models. */
function splitArgs(args: string): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < args.length; i += 7) pieces.push(args.slice(i, i + 7));
  return pieces;
}

function usageJson(reply: ScriptedReply, body: RecordedRequest["body"]): object {
  const usage = reply.usage ?? {
    // Rough 4-characters-per-token estimate: enough for code that sums usage.
    prompt_tokens: Math.ceil(JSON.stringify(body?.messages ?? []).length / 4),
    completion_tokens: Math.ceil(
      ((reply.text ?? "").length + (reply.reasoning ?? "").length + (reply.toolCalls ? JSON.stringify(reply.toolCalls).length : 0)) / 4,
    ),
  };
  return { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
}

function completionJson(id: string, model: string, reply: ScriptedReply, body: RecordedRequest["body"]): object {
  const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${id.slice(-6)}_${index}`,
    type: "function",
    function: {
      name: call.name,
      arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments ?? {}),
    },
  }));
  const message: Record<string, unknown> = { role: "assistant", content: reply.text ?? null, refusal: null };
  if (reply.reasoning) message.reasoning_content = reply.reasoning;
  if (toolCalls.length) message.tool_calls = toolCalls;
  return {
    id,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message,
        logprobs: null,
        finish_reason: reply.finishReason ?? (toolCalls.length ? "tool_calls" : "stop"),
      },
    ],
    usage: usageJson(reply, body),
  };
}

function errorJson(status: number, message?: string): object {
  const defaults: Record<number, [string, string]> = {
    400: ["Bad request", "invalid_request_error"],
    401: ["Incorrect API key provided", "invalid_request_error"],
    403: ["Permission denied", "permission_error"],
    404: ["The model does not exist", "invalid_request_error"],
    429: ["Rate limit reached", "rate_limit_error"],
  };
  const [text, type] = defaults[status] ?? ["The server had an error while processing your request", "server_error"];
  return { error: { message: message ?? text, type, param: null, code: null } };
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** One scripted model for a whole test file: started before the tests, closed after. */
export function useScriptedModel(options?: ScriptedModelOptions): () => ScriptedModel {
  let model: ScriptedModel | undefined;
  before(async () => {
    model = await startScriptedModel(options);
  });
  after(async () => {
    await model?.close();
  });
  return () => {
    if (!model) throw new Error("the scripted model starts in before(); use it inside a test");
    return model;
  };
}
