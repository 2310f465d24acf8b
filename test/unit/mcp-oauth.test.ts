// Issue 30, item 1: OAuth 2.1 sign-in to a remote MCP server through the MCP SDK's own client,
// against a real authorization server (oidc-provider: discovery, dynamic registration, PKCE
// required, resource indicators, refresh tokens) and a protected MCP server that checks every
// token with it (test/support/oauth-servers.ts). The browser is a cookie-keeping fetch that
// follows the sign-in link, as a person clicking "allow" would.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { McpOAuthSettings } from "../../acp-server/config/mcp-schema";
import { McpConnection } from "../../acp-server/mcp/connection";
import { McpAuthStore } from "../../acp-server/mcp/oauth/auth-store";
import { clientServerSpec } from "../../acp-server/mcp/server-spec";
import type { Logger } from "../../acp-server/util/log";
import type { UserElicitation } from "../../acp-server/tools/elicitation";
import { followLikeABrowser, startOAuthWorld, type OAuthWorld } from "../support/oauth-servers";
import { freePort } from "../support/mcp-servers";

let home: string;
const savedHome = process.env.HERMES_HOME;
before(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-oauth-"));
  process.env.HERMES_HOME = home;
});
after(() => {
  if (savedHome === undefined) delete process.env.HERMES_HOME;
  else process.env.HERMES_HOME = savedHome;
  fs.rmSync(home, { recursive: true, force: true });
});

/** A logger that keeps every line, to check no token ever reaches it. */
function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const keep = (level: string) => (message: string, fields?: Record<string, unknown>) => void lines.push(`${level} ${message} ${JSON.stringify(fields ?? {}, (_key, value: unknown) => (value instanceof Error ? value.message : value))}`);
  return { lines, debug: keep("debug"), info: keep("info"), warn: keep("warn"), error: keep("error") };
}

function connectionTo(world: OAuthWorld, log: Logger, oauth?: McpOAuthSettings | false): McpConnection {
  return new McpConnection(clientServerSpec("protected", { kind: "http", url: world.mcpUrl, headers: {}, ...(oauth !== undefined ? { oauth } : {}) }), process.cwd(), log, () => {});
}

const NO_SIGNAL = new AbortController().signal;

async function signIn(connection: McpConnection): Promise<void> {
  await connection.start();
  assert.equal(connection.status, "needs_sign_in", connection.error);
  const url = connection.signInUrl!;
  assert.ok(url, "a sign-in link is open");
  const landed = await followLikeABrowser(url.href);
  assert.equal(landed.status, 200, "the loopback listener answered the browser");
  assert.match(await landed.text(), /Signed in to protected/);
  assert.equal(await connection.waitForSignIn(AbortSignal.timeout(30_000)), true, connection.error);
}

test("discovery, dynamic registration, PKCE and the resource indicator: signed in, tools work, the token is stored mode 600 and never logged", async () => {
  const world = await startOAuthWorld();
  const log = recordingLogger();
  const connection = connectionTo(world, log);
  try {
    await signIn(connection);
    const url = new URL(world.registrations.length ? String((world.registrations[0]!.redirect_uris as string[])[0]) : "http://missing");
    assert.equal(world.registrations.length, 1, "one dynamic registration");
    assert.equal(url.hostname, "127.0.0.1");
    assert.equal(url.pathname, "/callback");
    assert.equal(world.registrations[0]!.token_endpoint_auth_method, "none", "a public client");
    assert.deepEqual(connection.tools.map((tool) => tool.name).sort(), ["admin_report", "whoami"]);
    const result = await connection.callTool("whoami", {}, NO_SIGNAL);
    assert.deepEqual(result.content, [{ type: "text", text: "account alice" }]);
    // The authorization server gives the token the MCP server's audience only for a `resource` request.
    assert.ok(world.acceptedTokens.length > 0);

    const store = new McpAuthStore(world.mcpUrl, "protected", log);
    assert.equal(path.dirname(store.file), path.join(home, "mcp-auth"));
    assert.equal(fs.statSync(store.file).mode & 0o777, 0o600);
    assert.equal(fs.statSync(path.dirname(store.file)).mode & 0o777, 0o700);
    const record = store.read();
    assert.ok(record.tokens?.access_token && record.tokens.refresh_token, "access and refresh tokens stored");
    const secrets = [record.tokens!.access_token, record.tokens!.refresh_token!];
    for (const line of log.lines) for (const secret of secrets) assert.ok(!line.includes(secret), `a token reached the log: ${line}`);
    const states = await import("../../acp-server/mcp/bridge");
    assert.match(states.describeServers([{ name: "protected", source: "config", transport: "http", status: "ready", tools: 2, prompts: 0, signIn: "signed in" }]), /ready \(signed in\), 2 tools/);
  } finally {
    await connection.close();
    await world.close();
  }
});

test("a revoked access token is refreshed with the refresh token, without asking the user", async () => {
  const world = await startOAuthWorld();
  const log = recordingLogger();
  const connection = connectionTo(world, log);
  try {
    await signIn(connection);
    const before = new McpAuthStore(world.mcpUrl, "protected", log).read().tokens!.access_token;
    await world.revokeAccessTokens();
    const result = await connection.callTool("whoami", {}, NO_SIGNAL);
    assert.deepEqual(result.content, [{ type: "text", text: "account alice" }]);
    assert.ok(world.grants.includes("refresh_token"), `grants: ${world.grants.join(", ")}`);
    const after = new McpAuthStore(world.mcpUrl, "protected", log).read().tokens!.access_token;
    assert.notEqual(after, before, "a new access token was stored");
    assert.equal(connection.status, "ready");
  } finally {
    await connection.close();
    await world.close();
  }
});

test("a new process reuses the stored sign-in: no link, no registration", async () => {
  const world = await startOAuthWorld();
  const log = recordingLogger();
  const first = connectionTo(world, log);
  try {
    await signIn(first);
  } finally {
    await first.close();
  }
  const second = connectionTo(world, log);
  try {
    await second.start();
    assert.equal(second.status, "ready", second.error);
    assert.equal(world.registrations.length, 1);
  } finally {
    await second.close();
    await world.close();
  }
});

test("403 insufficient_scope: the call shows a new sign-in link for the wider scope, and goes through once signed in", async () => {
  const world = await startOAuthWorld();
  const log = recordingLogger();
  const connection = connectionTo(world, log);
  try {
    await signIn(connection);
    const asked: string[] = [];
    const asker: UserElicitation = {
      ask: async (question) => {
        assert.equal(question.mode, "url");
        if (question.mode !== "url") return { action: "decline" };
        asked.push(question.url);
        assert.match(new URL(question.url).searchParams.get("scope") ?? "", /mcp:admin/);
        void followLikeABrowser(question.url);
        return { action: "accept" };
      },
      complete: async () => {},
    };
    const result = await connection.callTool("admin_report", {}, NO_SIGNAL, asker);
    assert.deepEqual(result.content, [{ type: "text", text: "admin report: all systems nominal" }]);
    assert.equal(asked.length, 1);
    assert.match(new McpAuthStore(world.mcpUrl, "protected", log).read().tokens?.scope ?? "", /mcp:admin/);
  } finally {
    await connection.close();
    await world.close();
  }
});

test("a declined step-up fails the call with the link and how to sign in", async () => {
  const world = await startOAuthWorld();
  const log = recordingLogger();
  const connection = connectionTo(world, log);
  try {
    await signIn(connection);
    const asker: UserElicitation = { ask: async () => ({ action: "decline" }), complete: async () => {} };
    await assert.rejects(connection.callTool("admin_report", {}, NO_SIGNAL, asker), /needs you to sign in before this call: open http:\/\/127\.0\.0\.1:\d+\/auth\?.* \(or run \/mcp login protected\)/);
  } finally {
    await connection.close();
    await world.close();
  }
});

test("logout deletes the stored tokens and leaves the server signed out; login signs in again", async () => {
  const world = await startOAuthWorld();
  const log = recordingLogger();
  const connection = connectionTo(world, log);
  try {
    await signIn(connection);
    const store = new McpAuthStore(world.mcpUrl, "protected", log);
    assert.ok(fs.existsSync(store.file));
    assert.equal(await connection.logout(), true);
    assert.ok(!fs.existsSync(store.file));
    assert.equal(connection.status, "needs_sign_in");
    assert.match(connection.error ?? "", /signed out/);
    const shown: string[] = [];
    await connection.login((url) => {
      shown.push(url.href);
      void followLikeABrowser(url.href);
    }, AbortSignal.timeout(30_000));
    assert.equal(shown.length, 1);
    assert.equal(connection.status, "ready");
    assert.ok(store.read().tokens?.access_token);
  } finally {
    await connection.close();
    await world.close();
  }
});

test("a redirect port Hermes picked that another program took: it registers again on a free port and the sign-in goes through", async () => {
  const world = await startOAuthWorld();
  const log = recordingLogger();
  const first = connectionTo(world, log);
  const squatter = net.createServer();
  let second: McpConnection | undefined;
  try {
    await signIn(first);
    await first.close();
    // The tokens are gone (expired and not refreshable), the registration naming the port stays.
    const store = new McpAuthStore(world.mcpUrl, "protected", log);
    store.update((record) => {
      const next = { ...record };
      delete next.tokens;
      return next;
    });
    const taken = store.read().redirect_port!;
    assert.ok(taken >= 20_000 && taken <= 32_767, `a picked port is below every system's ephemeral range (${taken})`);
    await new Promise<void>((resolve) => squatter.listen(taken, "127.0.0.1", resolve));

    second = connectionTo(world, log);
    await signIn(second);
    assert.equal(world.registrations.length, 2, "registered again for the new redirect URI");
    const moved = store.read().redirect_port!;
    assert.notEqual(moved, taken);
    assert.equal(String((world.registrations[1]!.redirect_uris as string[])[0]), `http://127.0.0.1:${moved}/callback`);
    assert.deepEqual((await second.callTool("whoami", {}, NO_SIGNAL)).content, [{ type: "text", text: "account alice" }]);
  } finally {
    squatter.close();
    await second?.close();
    await first.close();
    await world.close();
  }
});

test("a configured redirect port that is taken is named, with what to do", async () => {
  const port = await freePort();
  const squatter = net.createServer();
  await new Promise<void>((resolve) => squatter.listen(port, "127.0.0.1", resolve));
  const world = await startOAuthWorld();
  const connection = connectionTo(world, recordingLogger(), { redirect_port: port, grant: "authorization_code", signing_algorithm: "RS256" });
  try {
    await connection.start();
    assert.equal(connection.status, "failed");
    assert.match(connection.error ?? "", new RegExp(`Port ${port} \\(oauth\\.redirect_port of the MCP server "protected"\\) is in use by another program: free it and sign in again`));
  } finally {
    squatter.close();
    await connection.close();
    await world.close();
  }
});

test("a pre-registered client from config: no dynamic registration, its redirect port is used", async () => {
  const port = await freePort();
  const world = await startOAuthWorld({ preRegistered: { client_id: "hermes-configured", redirect_uris: [`http://127.0.0.1:${port}/callback`] } });
  const log = recordingLogger();
  const connection = connectionTo(world, log, { client_id: "hermes-configured", redirect_port: port, grant: "authorization_code", signing_algorithm: "RS256" });
  try {
    await signIn(connection);
    assert.equal(world.registrations.length, 0);
    assert.equal(connection.signInUrl, undefined);
    const client = new McpAuthStore(world.mcpUrl, "protected", log).read().client_information;
    assert.equal(client?.client_id, "hermes-configured", "the configured client, bound to the server it signed in with");
    assert.equal(client?.issuer, world.issuer);
  } finally {
    await connection.close();
    await world.close();
  }
});

test("a sign-in link from another page (wrong state) is refused; the real one still works", async () => {
  const world = await startOAuthWorld();
  const log = recordingLogger();
  const connection = connectionTo(world, log);
  try {
    await connection.start();
    const url = connection.signInUrl!;
    const redirect = new URL(url.searchParams.get("redirect_uri")!);
    const forged = await fetch(`${redirect.href}?code=stolen&state=not-the-state`);
    assert.equal(forged.status, 400);
    assert.equal(connection.status, "needs_sign_in");
    await followLikeABrowser(url.href);
    assert.equal(await connection.waitForSignIn(AbortSignal.timeout(30_000)), true);
  } finally {
    await connection.close();
    await world.close();
  }
});

test("hermes doctor: a server waiting for a sign-in is a warning naming the command; signed in, it is ok and says so", async () => {
  const world = await startOAuthWorld();
  const log = recordingLogger();
  const { checkMcpServers } = await import("../../acp-server/cli/doctor-checks");
  const loaded = { config: { mcp_servers: { protected: { url: world.mcpUrl } } }, env: {}, configPath: path.join(home, "config.yaml") } as unknown as Parameters<typeof checkMcpServers>[0];
  try {
    const [before] = await checkMcpServers(loaded, process.cwd(), log, 15_000);
    assert.equal(before!.status, "warn");
    assert.match(before!.detail ?? "", /needs sign-in/);
    assert.match(before!.fix ?? "", /hermes mcp login protected/);
    const connection = connectionTo(world, log);
    try {
      await signIn(connection);
    } finally {
      await connection.close();
    }
    const [after] = await checkMcpServers(loaded, process.cwd(), log, 15_000);
    assert.equal(after!.status, "ok");
    assert.match(after!.detail ?? "", /2 tools \(signed in\)/);
  } finally {
    await world.close();
  }
});

test("config: oauth entries are checked (a machine grant needs its credentials; enterprise needs the identity provider's), ${ENV} is expanded in secrets", async () => {
  const { configServerSpecs } = await import("../../acp-server/mcp/server-spec");
  const specs = configServerSpecs(
    {
      good: { url: "https://mcp.example.com/mcp", oauth: { client_id: "${CID}", client_secret: "${SECRET}", scopes: ["a", "b"] } },
      off: { url: "https://mcp.example.com/mcp", oauth: false },
      machine: { url: "https://mcp.example.com/mcp", oauth: { grant: "client_credentials", client_id: "ci" } },
      enterprise: { url: "https://mcp.example.com/mcp", oauth: { grant: "enterprise", client_id: "x", client_secret: "y", idp_token_endpoint: "https://idp.example.com/token" } },
      typo: { url: "https://mcp.example.com/mcp", oauth: { clientid: "x" } },
    },
    { CID: "hermes", SECRET: "s3cret" },
    "/home/you/.hermes/config.yaml",
  );
  const byName = Object.fromEntries(specs.map((spec) => [spec.name, spec]));
  assert.deepEqual(byName.good!.transport, { kind: "http", url: "https://mcp.example.com/mcp", headers: {}, oauth: { client_id: "hermes", client_secret: "s3cret", scopes: ["a", "b"], grant: "authorization_code", signing_algorithm: "RS256" } });
  assert.equal(byName.off!.transport.kind !== "stdio" && byName.off!.transport.oauth, false);
  assert.match(byName.machine!.problem ?? "", /client_credentials needs client_secret or private_key_pem/);
  assert.match(byName.enterprise!.problem ?? "", /enterprise needs idp_client_id.*enterprise needs idp_id_token|enterprise needs idp_client_id/);
  assert.match(byName.typo!.problem ?? "", /clientid/);
});
