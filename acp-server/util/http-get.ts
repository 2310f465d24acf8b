// One small GET over node:http(s), for requests the agent makes before any model call (the
// model picker's GET /models when a session opens). Node's global fetch would load undici
// first: ~20 ms of CPU that the first session/new would wait for. Redirects and other schemes
// go to the global fetch, which follows them as before. node:http itself loads on the first
// request: a session whose model list is cached never needs it.

export interface GetAnswer {
  status: number;
  ok: boolean;
  text: string;
}

/** Largest body read: a model list is a few hundred KB at most. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

export async function httpGet(url: string, options: { headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<GetAnswer> {
  const parsed = new URL(url);
  // node:https (and tls with it) only for an https endpoint: a local http server never needs it.
  const client = parsed.protocol === "http:" ? await import("node:http") : parsed.protocol === "https:" ? await import("node:https") : undefined;
  if (!client) return viaFetch(url, options);
  const answer = await new Promise<GetAnswer | "redirect">((resolve, reject) => {
    const request = client.get(parsed, { headers: options.headers, signal: options.signal }, (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && response.headers.location) {
        response.resume();
        return resolve("redirect");
      }
      const parts: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) request.destroy(new Error(`answer over ${MAX_BODY_BYTES} bytes`));
        else parts.push(chunk);
      });
      response.once("end", () => resolve({ status, ok: status >= 200 && status < 300, text: Buffer.concat(parts).toString("utf8") }));
      response.once("error", reject);
      // Cut off mid-body (the timeout, a dropped connection): a rejection, never a hang.
      response.once("close", () => {
        if (!response.complete) reject(new Error("the connection closed before the answer was complete"));
      });
    });
    request.once("error", reject);
  });
  return answer === "redirect" ? viaFetch(url, options) : answer;
}

async function viaFetch(url: string, options: { headers?: Record<string, string>; signal?: AbortSignal }): Promise<GetAnswer> {
  const response = await fetch(url, { headers: options.headers, signal: options.signal });
  return { status: response.status, ok: response.ok, text: await response.text() };
}
