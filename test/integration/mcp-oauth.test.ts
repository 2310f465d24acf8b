// Issue 30: a remote MCP server behind OAuth, over real ACP stdio with the built Hermes, a real
// authorization server (oidc-provider) and a protected MCP server (test/support/oauth-servers.ts).
// An editor with URL elicitation is shown the sign-in link as an elicitation right after
// session/new (and told when it is done); an editor without it gets a message with the link.
// Either way the server's tools work once the browser has come back, and no token reaches the
// session's journal or the log.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { agentText, HERMES_BIN, makeTempDir, scriptedConfig, startHermes, type Harness } from "../support/acp-harness";
import { followLikeABrowser, startOAuthWorld } from "../support/oauth-servers";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();

/** Every file under `folder`, read as text (journals, logs, the index). */
function textsUnder(folder: string): string {
  let all = "";
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (file.includes(`${path.sep}mcp-auth${path.sep}`)) continue;
    all += readFileSync(file, "latin1");
  }
  return all;
}

function storedTokens(hermes: Harness): { access_token: string; refresh_token?: string } {
  const folder = path.join(hermes.home, "mcp-auth");
  const [file] = readdirSync(folder).filter((name) => name.endsWith(".json"));
  assert.ok(file, "a sign-in file under $HERMES_HOME/mcp-auth");
  assert.equal(statSync(path.join(folder, file)).mode & 0o777, 0o600);
  return (JSON.parse(readFileSync(path.join(folder, file), "utf8")) as { tokens: { access_token: string; refresh_token?: string } }).tokens;
}

/** Waits until the MCP server's tools are offered (the agent re-announces its commands when servers change; /mcp says "ready"). */
async function untilReady(hermes: Harness, sessionId: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const before = agentText(hermes, sessionId).length;
    await hermes.prompt(sessionId, "/mcp");
    if (/\*\*protected\*\* \(config\.yaml, http\): ready/.test(agentText(hermes, sessionId).slice(before))) return;
    await hermes.waitForFrame((frame) => frame.method === "session/update" && frame.params?.update?.sessionUpdate === "available_commands_update", 10_000).catch(() => undefined);
  }
  throw new Error("the protected server never became ready");
}

test("an editor with URL elicitation gets the sign-in link after session/new; the server's tools work after it; no token in the journal", async () => {
  const model = scripted();
  const world = await startOAuthWorld();
  const completed: string[] = [];
  const hermes = await startHermes({
    config: scriptedConfig(model.url, { mcp_servers: { protected: { url: world.mcpUrl } }, mcp: { connect_wait: 5 } }),
    clientCapabilities: { elicitation: { form: {}, url: {} } },
    elicitation: async (request) => {
      const url = (request as { url?: string }).url;
      if (url) void followLikeABrowser(url);
      return { action: "accept" };
    },
  });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(await makeTempDir());
    const asked = await hermes.waitForFrame((frame) => frame.method === "elicitation/create", 15_000);
    assert.equal(asked.params.mode, "url");
    assert.equal(asked.params.sessionId, sessionId);
    assert.match(asked.params.message, /Sign in to the MCP server "protected"/);
    assert.equal(new URL(asked.params.url).origin, world.issuer);
    await hermes.waitForFrame((frame) => frame.method === "elicitation/complete" && (completed.push(frame.params.elicitationId), true), 30_000);
    assert.equal(completed[0], asked.params.elicitationId);
    await untilReady(hermes, sessionId);

    model.enqueue({ toolCalls: [{ name: "mcp_protected_whoami", arguments: {} }] });
    model.enqueue({ text: "You are alice." });
    const { stopReason } = await hermes.prompt(sessionId, "who am I on the protected server?");
    assert.equal(stopReason, "end_turn");
    const toolResult = JSON.stringify(model.requests.at(-1)?.body);
    assert.match(toolResult, /account alice/);

    const tokens = storedTokens(hermes);
    const everything = textsUnder(hermes.home) + hermes.stderr();
    assert.ok(!everything.includes(tokens.access_token), "the access token is in a journal or log");
    if (tokens.refresh_token) assert.ok(!everything.includes(tokens.refresh_token), "the refresh token is in a journal or log");
    hermes.assertFramesValid();
  } finally {
    await hermes.close();
    await world.close();
  }
});

test("an editor without elicitation gets a message with the link; /mcp login waits for the browser and says who is signed in", async () => {
  const model = scripted();
  const world = await startOAuthWorld();
  const hermes = await startHermes({ config: scriptedConfig(model.url, { mcp_servers: { protected: { url: world.mcpUrl } }, mcp: { connect_wait: 5 } }) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(await makeTempDir());
    // A notice (a thought chunk with Hermes's notice _meta: the panel shows it as a warning), journaled like any.
    const told = await hermes.waitForUpdate((update) => update.sessionUpdate === "agent_thought_chunk" && /needs you to sign in/.test(JSON.stringify(update)), 15_000);
    const link = /(http:\/\/127\.0\.0\.1:\d+\/auth\?[^\s"\\]+)/.exec(JSON.stringify(told))?.[1];
    assert.ok(link, `a link in: ${JSON.stringify(told)}`);

    // /mcp login starts a fresh sign-in: its link is in the reply, and the reply ends once the browser is back.
    const before = agentText(hermes, sessionId).length;
    const login = hermes.prompt(sessionId, "/mcp login protected");
    const shown = await hermes.waitForUpdate((update) => update.sessionUpdate === "agent_message_chunk" && /Open this link to sign in to \*\*protected\*\*/.test(JSON.stringify(update)), 15_000);
    const fresh = /(http:\/\/127\.0\.0\.1:\d+\/auth\?[^\s"\\)]+)/.exec(JSON.stringify(shown))?.[1];
    assert.ok(fresh);
    await followLikeABrowser(fresh.replace(/\\u0026/g, "&"));
    await login;
    assert.match(agentText(hermes, sessionId).slice(before), /Signed in to \*\*protected\*\*: 2 tools available\./);
    const status = agentText(hermes, sessionId).length;
    await hermes.prompt(sessionId, "/mcp");
    assert.match(agentText(hermes, sessionId).slice(status), /\*\*protected\*\* \(config\.yaml, http\): ready \(signed in\), 2 tools/);

    const logout = agentText(hermes, sessionId).length;
    await hermes.prompt(sessionId, "/mcp logout protected");
    assert.match(agentText(hermes, sessionId).slice(logout), /Signed out of \*\*protected\*\*: its stored tokens are deleted\./);
    assert.deepEqual(readdirSync(path.join(hermes.home, "mcp-auth")).filter((name) => name.endsWith(".json")), []);
    hermes.assertFramesValid();
  } finally {
    await hermes.close();
    await world.close();
  }
});

test("hermes mcp login NAME prints the link, waits for the browser, and says what it got; list shows it; logout removes it", async () => {
  const world = await startOAuthWorld();
  const home = await makeTempDir("hermes-home-");
  writeFileSync(path.join(home, "config.yaml"), `mcp_servers:\n  protected:\n    url: ${world.mcpUrl}\n`);
  const env = { ...process.env, HERMES_HOME: home, HERMES_NO_BROWSER: "1" };
  const hermes = (...args: string[]) => spawn(process.execPath, [HERMES_BIN, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  try {
    const login = hermes("mcp", "login", "protected");
    let stderr = "";
    let stdout = "";
    login.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    const link = await new Promise<string>((resolve, reject) => {
      login.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        const found = /(http:\/\/127\.0\.0\.1:\d+\/auth\?\S+)/.exec(stderr)?.[1];
        if (found && /waiting for the browser/.test(stderr)) resolve(found);
      });
      login.once("exit", (code) => reject(new Error(`hermes mcp login exited ${code} before printing a link: ${stderr}`)));
    });
    assert.match(stderr, /open it yourself; waiting for the browser to come back/);
    await followLikeABrowser(link);
    const [code] = (await once(login, "exit")) as [number];
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^Signed in to protected: 2 tools\.$/m);

    const list = hermes("mcp", "list");
    let listed = "";
    list.stdout.on("data", (chunk: Buffer) => (listed += chunk.toString()));
    await once(list, "exit");
    assert.match(listed, /^protected\s+http\s+http:\/\/127\.0\.0\.1:\d+\/mcp\s+\(signed in\)$/m);

    const logout = hermes("mcp", "logout", "protected");
    let out = "";
    logout.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    await once(logout, "exit");
    assert.match(out, /Signed out of protected: its stored tokens are deleted\./);
    assert.deepEqual(readdirSync(path.join(home, "mcp-auth")).filter((name) => name.endsWith(".json")), []);
  } finally {
    await world.close();
  }
});
