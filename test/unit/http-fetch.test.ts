// The keep-alive fetch the provider SDKs use (providers/http-fetch.ts), against a real HTTP server:
// it must look like fetch where the SDKs and errors.ts look (status, headers, streamed body,
// AbortError, TypeError with the Node error as cause) and reuse one connection.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { after, before, test } from "node:test";
import { createKeepAliveFetch } from "../../acp-server/providers/http-fetch";
import { httpGet } from "../../acp-server/util/http-get";

let server: http.Server;
let base: string;
let connections = 0;
const bodies: { method?: string; length?: string; body: string }[] = [];
/** Responses of /hold wait here until a test releases them. */
const held: http.ServerResponse[] = [];
let onHeld: (() => void) | undefined;

before(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      bodies.push({ method: req.method, length: req.headers["content-length"], body });
      if (req.url === "/json") {
        res.writeHead(201, { "content-type": "application/json", "x-custom": "yes" });
        res.end(JSON.stringify({ echo: body }));
      } else if (req.url === "/redirect") {
        res.writeHead(307, { location: "/json" });
        res.end();
      } else if (req.url === "/hold") {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write("data: first\n\n");
        held.push(res);
        onHeld?.();
      } else if (req.url === "/empty") {
        res.writeHead(204);
        res.end();
      } else {
        res.writeHead(404);
        res.end("nope");
      }
    });
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const heldResponse = () => new Promise<http.ServerResponse>((resolve) => {
  if (held.length) return resolve(held.shift()!);
  onHeld = () => {
    onHeld = undefined;
    resolve(held.shift()!);
  };
});

test("a POST sends its body with its length and answers with status, headers and body; two requests share one connection", async () => {
  const fetch = createKeepAliveFetch();
  const before = connections;
  for (const text of ["héllo", "second"]) {
    const response = await fetch(`${base}/json`, { method: "POST", headers: { "content-type": "application/json" }, body: text });
    assert.equal(response.status, 201);
    assert.equal(response.ok, true);
    assert.equal(response.headers.get("x-custom"), "yes");
    assert.deepEqual(await response.json(), { echo: text });
    assert.equal(bodies.at(-1)?.length, String(Buffer.byteLength(text)));
  }
  assert.equal(connections - before, 1, "the second request reused the keep-alive connection");
});

test("an error status is an answer, not a failure; a 204 has no body", async () => {
  const fetch = createKeepAliveFetch();
  const missing = await fetch(`${base}/missing`);
  assert.equal(missing.status, 404);
  assert.equal(await missing.text(), "nope");
  const empty = await fetch(`${base}/empty`, { method: "POST", body: "x" });
  assert.equal(empty.status, 204);
  assert.equal(empty.body, null);
});

test("a server that refuses the connection: TypeError('fetch failed') with the Node error (ECONNREFUSED) as its cause", async () => {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const error = await createKeepAliveFetch()(`http://127.0.0.1:${port}/x`, { method: "POST", body: "{}" }).then(
    () => assert.fail("expected a rejection"),
    (e: unknown) => e as TypeError & { cause?: NodeJS.ErrnoException },
  );
  assert.ok(error instanceof TypeError);
  assert.equal(error.message, "fetch failed");
  assert.equal(error.cause?.code, "ECONNREFUSED");
});

test("aborting before the answer rejects with an AbortError; aborting mid-body errors the body with one", async () => {
  const fetch = createKeepAliveFetch();
  const early = new AbortController();
  early.abort();
  await assert.rejects(fetch(`${base}/json`, { signal: early.signal }), { name: "AbortError" });

  const late = new AbortController();
  const response = await fetch(`${base}/hold`, { method: "POST", body: "{}", signal: late.signal });
  const res = await heldResponse();
  const reader = response.body!.getReader();
  const first = await reader.read();
  assert.equal(Buffer.from(first.value).toString(), "data: first\n\n");
  late.abort();
  await assert.rejects(reader.read(), { name: "AbortError" });
  res.destroy();
});

test("a connection that drops mid-answer errors the body instead of ending it quietly", async () => {
  const response = await createKeepAliveFetch()(`${base}/hold`, { method: "POST", body: "{}" });
  const res = await heldResponse();
  const reader = response.body!.getReader();
  await reader.read();
  res.socket?.destroy();
  await assert.rejects(reader.read());
});

test("redirects, other schemes and other bodies go to the global fetch, with the request as given", async () => {
  const seen: unknown[] = [];
  const fallback = (async (input: unknown, init?: RequestInit) => {
    seen.push([String(input), init?.method]);
    return new Response("from fallback", { status: 200 });
  }) as typeof fetch;
  const fetch = createKeepAliveFetch(fallback);
  assert.equal(await (await fetch(`${base}/redirect`, { method: "POST", body: "{}" })).text(), "from fallback");
  assert.equal(await (await fetch("data:text/plain,hi")).text(), "from fallback");
  assert.equal(await (await fetch(`${base}/json`, { method: "POST", body: new URLSearchParams({ a: "b" }) })).text(), "from fallback");
  assert.deepEqual(seen, [
    [`${base}/redirect`, "POST"],
    ["data:text/plain,hi", undefined],
    [`${base}/json`, "POST"],
  ]);
});

test("an https endpoint goes over TLS (node:https loaded on that first request), keeping its connection alive", async () => {
  const fixtures = path.join(import.meta.dirname, "..", "fixtures", "tls");
  let secureConnections = 0;
  const secure = https.createServer({ key: readFileSync(path.join(fixtures, "localhost.key")), cert: readFileSync(path.join(fixtures, "localhost.crt")) }, (req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200, { "content-type": "text/plain" }).end(`secure ${req.method}`));
  });
  secure.on("secureConnection", () => secureConnections++);
  await new Promise<void>((resolve) => secure.listen(0, "127.0.0.1", resolve));
  const previous = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  // The fixture certificate is self-signed: verified against nothing here.
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0";
  try {
    const fetchKeepAlive = createKeepAliveFetch();
    const origin = `https://localhost:${(secure.address() as AddressInfo).port}`;
    const first = await fetchKeepAlive(`${origin}/a`, { method: "POST", body: "{}" });
    assert.equal(first.status, 200);
    assert.equal(await first.text(), "secure POST");
    const second = await fetchKeepAlive(new URL(`${origin}/b`));
    assert.equal(await second.text(), "secure GET");
    assert.equal(secureConnections, 1, "the second request reused the first one's TLS connection");
    const got = await httpGet(`${origin}/c`);
    assert.deepEqual(got, { status: 200, ok: true, text: "secure GET" });
  } finally {
    if (previous === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    else process.env.NODE_TLS_REJECT_UNAUTHORIZED = previous;
    secure.closeAllConnections();
    await new Promise<void>((resolve) => secure.close(() => resolve()));
  }
});
