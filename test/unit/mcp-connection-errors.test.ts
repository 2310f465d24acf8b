// Issue 30, item 5: an HTTP MCP server's failure reads as what went wrong. A 401 says the
// server needs sign-in and how (no SSE fallback hides it); when streamable HTTP fails for
// another reason and the SSE fallback fails too, the first transport's real error leads.
// Real HTTP servers on 127.0.0.1 and the real MCP SDK transports; nothing is mocked.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type RequestListener, type Server } from "node:http";
import { once } from "node:events";
import { McpConnection } from "../../acp-server/mcp/connection";
import { clientServerSpec } from "../../acp-server/mcp/server-spec";
import { createLogger } from "../../acp-server/util/log";
import { makeTempDir } from "../support/acp-harness";

// OAuth is on for these servers: whatever it stores goes to a throwaway $HERMES_HOME, never the user's.
const savedHome = process.env.HERMES_HOME;
before(async () => {
  process.env.HERMES_HOME = await makeTempDir("hermes-home-");
});
after(() => {
  if (savedHome === undefined) delete process.env.HERMES_HOME;
  else process.env.HERMES_HOME = savedHome;
});

async function listen(handler: RequestListener): Promise<{ server: Server; url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    handler(request, response);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${port}/mcp`, seen };
}

async function connectTo(url: string, kind: "http" | "sse" = "http", oauth?: false): Promise<McpConnection> {
  const connection = new McpConnection(clientServerSpec("remote", { kind, url, headers: {}, ...(oauth === false ? { oauth } : {}) }), process.cwd(), createLogger("test"), () => {});
  await connection.start();
  return connection;
}

test("a 401 on streamable HTTP says the server needs sign-in and does not fall back to SSE", async () => {
  const { server, url, seen } = await listen((_request, response) => {
    response.writeHead(401, { "WWW-Authenticate": 'Bearer error="invalid_token"' }).end("unauthorized");
  });
  try {
    // OAuth on (the default): the server publishes no metadata, so signing in cannot start, and that is what is said.
    const connection = await connectTo(url);
    assert.equal(connection.status, "failed");
    assert.match(connection.error ?? "", /MCP server "remote" needs you to sign in \(it answered 401\), but signing in with OAuth failed: .*`oauth: false`/);
    assert.doesNotMatch(connection.error ?? "", /SSE/);
    assert.ok(!seen.includes("GET /mcp"), `no SSE stream was tried: ${seen.join(", ")}`);
    await connection.close();
    // OAuth off: the token in headers is the way.
    seen.length = 0;
    const without = await connectTo(url, "http", false);
    assert.equal(without.status, "failed");
    assert.match(without.error ?? "", /MCP server "remote" needs you to sign in \(it answered 401\), and Hermes does not sign in to it with OAuth because its entry has oauth: false/);
    assert.ok(seen.every((line) => line.startsWith("POST ")), `only streamable HTTP was tried: ${seen.join(", ")}`);
    await without.close();
  } finally {
    server.close();
  }
});

test("a 401 on an SSE server says it needs sign-in too", async () => {
  const { server, url } = await listen((_request, response) => {
    response.writeHead(401, { "WWW-Authenticate": "Bearer" }).end();
  });
  try {
    const connection = await connectTo(url, "sse", false);
    assert.equal(connection.status, "failed");
    assert.match(connection.error ?? "", /needs you to sign in \(it answered 401\)/);
    await connection.close();
    const withOAuth = await connectTo(url, "sse");
    assert.equal(withOAuth.status, "failed");
    assert.match(withOAuth.error ?? "", /needs you to sign in \(it answered 401\), but signing in with OAuth failed/);
    await withOAuth.close();
    await connection.close();
  } finally {
    server.close();
  }
});

test("when the SSE fallback fails as well, the streamable HTTP error leads", async () => {
  const { server, url, seen } = await listen((request, response) => {
    if (request.method === "POST") response.writeHead(500, { "Content-Type": "text/plain" }).end("upstream database is down");
    else response.writeHead(404).end();
  });
  try {
    const connection = await connectTo(url);
    assert.equal(connection.status, "failed");
    const error = connection.error ?? "";
    assert.match(error, /^Streamable HTTP error: .*upstream database is down/);
    assert.match(error, /SSE fallback failed too: SSE error: .*404/);
    assert.ok(seen.some((line) => line.startsWith("GET ")), "the SSE fallback was still tried");
    await connection.close();
  } finally {
    server.close();
  }
});
