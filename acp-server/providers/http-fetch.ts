// The `fetch` the provider SDKs are given: plain http(s) requests over keep-alive connections.
// Node's global fetch (undici) costs about 1.5 ms of CPU per request in its own machinery
// (Request/Headers objects, WebIDL conversions, body re-encoding); a node:http request costs a
// fraction of that, and the agent loop makes one request per tool iteration. The SDKs stay in
// charge of everything else (headers, retries, timeouts through the signal, SSE parsing): this
// only moves bytes.
//
// It behaves like fetch where the SDKs look: a network failure rejects with TypeError("fetch
// failed") whose cause is the Node error (errors.ts reads ECONNREFUSED and friends from that
// chain); an abort rejects (or errors the body) with an AbortError; the answer is a real
// Response. What it does not do itself goes to the global fetch: bodies other than text or
// bytes, schemes other than http(s), and redirects (the request is sent again through fetch,
// which follows them as it always did). No Accept-Encoding is sent, so answers arrive
// uncompressed and need no decoding.
import http from "node:http";
// node:https (and tls with it) loads on the first https request, not with the provider client:
// a local http endpoint never needs it, and the first session/new makes the client.
type HttpsModule = typeof import("node:https");
let httpsModule: Promise<HttpsModule> | undefined;
const loadHttps = (): Promise<HttpsModule> => (httpsModule ??= import("node:https"));

type FetchInput = Parameters<typeof fetch>[0];
type FetchInit = NonNullable<Parameters<typeof fetch>[1]>;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([101, 204, 205, 304]);

/** A fetch with its own keep-alive connection pools (one per provider client). */
export function createKeepAliveFetch(fallback: typeof fetch = globalThis.fetch): typeof fetch {
  // The SDKs build each request's headers as a Headers and read answers as a Response: Node
  // loads both (its bundled undici, tens of ms) on first use. The client is made ahead of the
  // first prompt (the runtime's warm-up), so they load then rather than on the first request.
  void new Response(null, { headers: new Headers() });
  const httpAgent = new http.Agent({ keepAlive: true });
  let httpsAgent: http.Agent | undefined;
  return (async (input: FetchInput, init: FetchInit = {}) => {
    const url = typeof input === "string" ? new URL(input) : input instanceof URL ? input : undefined;
    const body = init.body;
    const plainBody = body === undefined || body === null || typeof body === "string" || body instanceof Uint8Array;
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || !plainBody) return fallback(input, init);
    let transport: typeof http | HttpsModule = http;
    let agent = httpAgent;
    if (url.protocol === "https:") {
      transport = await loadHttps();
      agent = httpsAgent ??= new transport.Agent({ keepAlive: true });
    }
    const answer = await send(url, init, transport, agent, true);
    if (answer === "redirect") return fallback(input, init);
    return answer;
  }) as typeof fetch;
}

function abortError(): DOMException {
  return new DOMException("This operation was aborted", "AbortError");
}

function requestHeaders(init: FetchInit, body: Uint8Array | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  // The SDKs pass a Headers already: read it as it is rather than copying it into another.
  const given = init.headers instanceof Headers ? init.headers : new Headers(init.headers ?? {});
  for (const [name, value] of given) headers[name] = value;
  if (body !== undefined) headers["content-length"] = String(body.byteLength);
  return headers;
}

/** One request. A reused keep-alive socket the server had already closed gets one retry on a new one. */
function send(url: URL, init: FetchInit, transport: typeof http | HttpsModule, agent: http.Agent, mayRetry: boolean): Promise<Response | "redirect"> {
  const signal = init.signal ?? undefined;
  // Encoded once: a string body would be measured, then encoded, on every write (the request
  // grows with the conversation).
  const text = (init.body ?? undefined) as string | Uint8Array | undefined;
  const body = typeof text === "string" ? Buffer.from(text, "utf8") : text;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const request = transport.request(url, { method: init.method ?? "GET", headers: requestHeaders(init, body), agent });
    let responded = false;
    const onAbort = () => request.destroy(abortError());
    signal?.addEventListener("abort", onAbort, { once: true });
    const done = () => signal?.removeEventListener("abort", onAbort);

    request.on("error", (error) => {
      if (responded) return; // the body stream reports it
      done();
      if (signal?.aborted) return reject(abortError());
      // The server closed an idle keep-alive connection just as we reused it: the request never
      // reached it, so sending it again on a fresh connection is safe.
      const code = (error as NodeJS.ErrnoException).code;
      if (mayRetry && request.reusedSocket && (code === "ECONNRESET" || code === "EPIPE")) {
        return resolve(send(url, init, transport, agent, false));
      }
      reject(new TypeError("fetch failed", { cause: error }));
    });
    request.once("response", (response) => {
      responded = true;
      const status = response.statusCode ?? 0;
      if (REDIRECTS.has(status) && response.headers.location) {
        done();
        response.resume();
        return resolve("redirect");
      }
      const headers = new Headers();
      const raw = response.rawHeaders;
      for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!); // name, value pairs; i + 1 in bounds
      const stream = NULL_BODY.has(status) || init.method === "HEAD" ? null : bodyStream(response, signal, done);
      if (!stream) {
        done();
        response.resume();
      }
      try {
        resolve(new Response(stream, { status, statusText: response.statusMessage ?? "", headers }));
      } catch (error) {
        response.destroy();
        reject(new TypeError("fetch failed", { cause: error }));
      }
    });
    request.end(body);
  });
}

/** The response body as a web stream, read only as fast as the SDK consumes it. */
function bodyStream(response: http.IncomingMessage, signal: AbortSignal | undefined, done: () => void): ReadableStream<Uint8Array> {
  let finished = false;
  const finish = () => {
    if (finished) return false;
    finished = true;
    done();
    return true;
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      response.on("data", (chunk: Buffer) => {
        if (finished) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 1) <= 0) response.pause();
      });
      response.once("end", () => {
        if (finish()) controller.close();
      });
      const fail = (error?: Error) => {
        if (finish()) controller.error(signal?.aborted ? abortError() : (error ?? new Error("terminated")));
      };
      response.on("error", fail);
      // A connection that drops mid-answer ends the body with an error, never a silent end.
      response.once("aborted", () => fail(new Error("terminated")));
      response.once("close", () => {
        if (!response.complete) fail(new Error("terminated"));
      });
    },
    pull() {
      response.resume();
    },
    cancel() {
      finish();
      response.destroy();
    },
  });
}
