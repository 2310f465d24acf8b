// probeEndpoint against real local HTTP servers: the headers each API mode sends, and how every
// kind of answer (or silence) is reported.
import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { after, test } from "node:test";
import { probeEndpoint } from "../../acp-server/config/probe-endpoint";

const servers: Server[] = [];
after(() => {
  for (const server of servers) server.close();
});

async function serve(answer: (res: ServerResponse) => void): Promise<{ url: string; seen: { path?: string; headers?: IncomingHttpHeaders } }> {
  const seen: { path?: string; headers?: IncomingHttpHeaders } = {};
  const server = createServer((req, res) => {
    seen.path = req.url;
    seen.headers = req.headers;
    answer(res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`, seen };
}

const json = (status: number, body: unknown) => (res: ServerResponse) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));

test("OpenAI-style endpoints get a bearer token; the listed models come back", async () => {
  const { url, seen } = await serve(json(200, { data: [{ id: "gpt-4.1" }, { id: "gpt-4.1-mini" }] }));
  const probe = await probeEndpoint({ baseUrl: url, apiKey: "sk-abc", apiMode: "chat_completions" });
  assert.equal(probe.ok, true);
  assert.deepEqual(probe.ok && probe.models, ["gpt-4.1", "gpt-4.1-mini"]);
  assert.equal(seen.path, "/v1/models", "the trailing slash of base_url is not doubled");
  assert.equal(seen.headers?.authorization, "Bearer sk-abc");
});

test("Anthropic gets x-api-key and anthropic-version, no bearer", async () => {
  const { url, seen } = await serve(json(200, { data: [{ id: "claude-sonnet-4-5" }] }));
  const probe = await probeEndpoint({ baseUrl: url, apiKey: "sk-ant", apiMode: "anthropic_messages" });
  assert.equal(probe.ok, true);
  assert.equal(seen.headers?.["x-api-key"], "sk-ant");
  assert.ok(seen.headers?.["anthropic-version"]);
  assert.equal(seen.headers?.authorization, undefined);
});

test("a rejected key, a server error, a missing route, a refused connection and silence", async () => {
  const rejected = await probeEndpoint({ baseUrl: (await serve(json(401, { error: "nope" }))).url, apiMode: "chat_completions" });
  assert.equal(rejected.ok, false);
  assert.equal(!rejected.ok && rejected.keyRejected, true);

  const broken = await probeEndpoint({ baseUrl: (await serve(json(503, { error: "overloaded" }))).url, apiMode: "chat_completions" });
  assert.equal(broken.ok, false);
  assert.match(broken.detail, /HTTP 503: .*overloaded/);

  // Some servers list no models: an HTTP answer still proves the endpoint is there.
  const noList = await probeEndpoint({ baseUrl: (await serve(json(404, {}))).url, apiMode: "chat_completions" });
  assert.equal(noList.ok, true);
  assert.match(noList.detail, /reachable .*404/);

  const closedServer = await serve(json(200, {}));
  const closedUrl = closedServer.url;
  await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
  const refused = await probeEndpoint({ baseUrl: closedUrl, apiMode: "chat_completions" });
  assert.equal(refused.ok, false);
  assert.match(refused.detail, /connection refused/);

  const silent = await probeEndpoint({ baseUrl: (await serve(() => {})).url, apiMode: "chat_completions" }, 300);
  assert.equal(silent.ok, false);
  assert.match(silent.detail, /no answer within 0\.3 s/);
});
