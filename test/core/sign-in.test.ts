// Sign-in over ACP: authMethods in initialize, auth-required (-32000) from session/new and
// session/prompt while no model is usable, and `authenticate` storing the key in
// $HERMES_HOME/.env (mode 600) so the next session works. Real stdio, real HTTP model server.
import assert from "node:assert/strict";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { after, before, test } from "node:test";
import { parse as parseYaml } from "yaml";
import { endpointKeyVariable } from "../../acp-server/config/key-hosts";
import { agentText, makeTempDir, startAgent } from "../support/in-process-agent";
import { startScriptedModel, type ScriptedModel } from "../support/scripted-model";

let model: ScriptedModel;
before(async () => {
  model = await startScriptedModel();
});
after(async () => {
  await model.close();
});

/** The loopback server plays the provider at an overridden base_url: its key is stored under the endpoint's own name. */
const endpointVariable = (url: string) => endpointKeyVariable(url)!;

const keylessConfig = (url: string) => ({
  model: { provider: "openai", name: "fake-model", base_url: url, api_mode: "chat_completions" },
  sessions: { auto_title: false },
});

test("no key: authMethods are advertised, session/new is auth-required, authenticate stores the key and the session works", async (t) => {
  const hermes = await startAgent({ config: keylessConfig(model.url) });
  t.after(() => hermes.close());
  const init = await hermes.initialize();
  const ids = init.authMethods?.map((m) => m.id) ?? [];
  assert.ok(ids.includes("openai-api-key"), ids.join(", "));
  assert.ok(!ids.includes("hermes-setup"), "no terminal method for a client without auth.terminal");

  const cwd = await makeTempDir();
  await assert.rejects(hermes.newSession(cwd), (error: any) => {
    assert.equal(error.code, -32000);
    assert.match(error.message, /No API key for provider "openai"/);
    return true;
  });

  await assert.rejects(
    hermes.agent.request("authenticate", { methodId: "openai-api-key" }),
    (error: any) => error.code === -32602 && /No OpenAI key was given/.test(error.message),
  );
  await assert.rejects(
    hermes.agent.request("authenticate", { methodId: "openai-api-key", _meta: { "hermes/apiKey": "two words" } }),
    (error: any) => error.code === -32602 && /contains spaces/.test(error.message),
  );

  const probes = model.requests.length;
  await hermes.agent.request("authenticate", { methodId: "openai-api-key", _meta: { "hermes/apiKey": "sk-signed-in-123" } });
  const envFile = path.join(hermes.home, ".env");
  assert.equal(readFileSync(envFile, "utf8"), `${endpointVariable(model.url)}=sk-signed-in-123\n`);
  assert.equal(statSync(envFile).mode & 0o777, 0o600);
  assert.equal(model.requests.length, probes, "the key check (GET /models) is not a model call");

  const { sessionId } = await hermes.newSession(cwd);
  model.enqueue({ text: "SIGNED-IN-OK" });
  const reply = await hermes.prompt(sessionId, "hello");
  assert.equal(reply.stopReason, "end_turn");
  assert.equal(agentText(hermes, sessionId), "SIGNED-IN-OK");
  assert.equal(model.requests.at(-1)!.headers.authorization, "Bearer sk-signed-in-123");
});

test("a client with auth.terminal gets the hermes-setup terminal method (hermes acp --setup)", async (t) => {
  const hermes = await startAgent({ config: keylessConfig(model.url), clientCapabilities: { auth: { terminal: true } } });
  t.after(() => hermes.close());
  const init = await hermes.initialize();
  const setup = init.authMethods?.find((m) => m.id === "hermes-setup") as any;
  assert.ok(setup, JSON.stringify(init.authMethods));
  assert.equal(setup.type, "terminal");
  assert.deepEqual(setup.args, ["--setup"]);
  await assert.rejects(hermes.agent.request("authenticate", { methodId: "hermes-setup" }), (error: any) => error.code === -32602);
});

test("nothing configured: authenticate writes the provider and model to config.yaml, keeping what is there", async (t) => {
  const hermes = await startAgent({ config: { sessions: { auto_title: false } }, env: { HERMES_BASE_URL: model.url } });
  t.after(() => hermes.close());
  await hermes.initialize();
  await assert.rejects(hermes.newSession(await makeTempDir()), (error: any) => error.code === -32000);
  await hermes.agent.request("authenticate", { methodId: "deepseek-api-key", _meta: { "hermes/apiKey": "sk-deep-1", "hermes/model": "fake-model" } });
  const config = parseYaml(readFileSync(path.join(hermes.home, "config.yaml"), "utf8"));
  assert.deepEqual(config.model, { provider: "deepseek", name: "fake-model" });
  assert.equal(config.sessions.auto_title, false);
  assert.equal(readFileSync(path.join(hermes.home, ".env"), "utf8"), `${endpointVariable(model.url)}=sk-deep-1\n`);
  const { sessionId } = await hermes.newSession(await makeTempDir());
  assert.ok(sessionId);
});

test("a key the endpoint rejects is not stored", async (t) => {
  const rejecting = createServer((_req, res) => {
    res.writeHead(401, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { message: "Incorrect API key provided" } }));
  });
  await new Promise<void>((resolve) => rejecting.listen(0, "127.0.0.1", resolve));
  t.after(() => rejecting.close());
  const url = `http://127.0.0.1:${(rejecting.address() as AddressInfo).port}/v1`;
  const hermes = await startAgent({ config: keylessConfig(url) });
  t.after(() => hermes.close());
  writeFileSync(path.join(hermes.home, ".env"), "OTHER=1\n");
  await hermes.initialize();
  await assert.rejects(
    hermes.agent.request("authenticate", { methodId: "openai-api-key", _meta: { "hermes/apiKey": "sk-wrong" } }),
    (error: any) => error.code === -32602 && /rejected the key \(HTTP 401\)/.test(error.message),
  );
  assert.equal(readFileSync(path.join(hermes.home, ".env"), "utf8"), "OTHER=1\n");
});

test("logout: advertised; the stored key goes and new sessions are auth-required again; a key set up by hand meanwhile is picked up", async (t) => {
  const hermes = await startAgent({ config: keylessConfig(model.url) });
  t.after(() => hermes.close());
  const init = await hermes.initialize();
  assert.deepEqual(init.agentCapabilities?.auth?.logout, {});
  await hermes.agent.request("authenticate", { methodId: "openai-api-key", _meta: { "hermes/apiKey": "sk-signed-in-456" } });
  const cwd = await makeTempDir();
  await hermes.newSession(cwd);

  const answer: any = await hermes.agent.request("logout", {});
  assert.deepEqual(answer._meta["hermes/removed"], [endpointVariable(model.url)]);
  assert.doesNotMatch(readFileSync(path.join(hermes.home, ".env"), "utf8"), /API_KEY/);
  await assert.rejects(hermes.newSession(cwd), (error: any) => error.code === -32000);

  // Set up outside the connection (`hermes setup` in a terminal): the next session/new reads it.
  writeFileSync(path.join(hermes.home, ".env"), `${endpointVariable(model.url)}=sk-by-hand-789\n`, { mode: 0o600 });
  const { sessionId } = await hermes.newSession(cwd);
  model.enqueue({ text: "BACK" });
  await hermes.prompt(sessionId, "hello");
  assert.equal(model.requests.at(-1)!.headers.authorization, "Bearer sk-by-hand-789");
});

test("logout with the key in the agent's environment (an editor's agent settings) signs this process out too", async (t) => {
  const hermes = await startAgent({ config: keylessConfig(model.url), env: { [endpointVariable(model.url)]: "sk-editor-env" } });
  t.after(() => hermes.close());
  await hermes.initialize();
  const cwd = await makeTempDir();
  await hermes.newSession(cwd);
  await hermes.agent.request("logout", {});
  await assert.rejects(hermes.newSession(cwd), (error: any) => error.code === -32000);
});

test("logout cannot take away a key written in config.yaml: the error names it, the stored keys still go", async (t) => {
  const hermes = await startAgent({ config: { ...keylessConfig(model.url), model: { ...keylessConfig(model.url).model, api_key: "sk-in-config-yaml" } } });
  t.after(() => hermes.close());
  await hermes.initialize();
  writeFileSync(path.join(hermes.home, ".env"), "OPENAI_API_KEY=sk-stored\n", { mode: 0o600 });
  await assert.rejects(hermes.agent.request("logout", {}), (error: any) => {
    assert.equal(error.code, -32600);
    assert.match(error.message, /model\.api_key in .*config\.yaml/);
    assert.doesNotMatch(error.message, /sk-in-config-yaml/);
    return true;
  });
  assert.doesNotMatch(readFileSync(path.join(hermes.home, ".env"), "utf8"), /OPENAI_API_KEY/);
});

test("keys stay with their hosts: OpenAI's key in the environment never reaches an overridden base_url, not in the sign-in check nor the session", async (t) => {
  const hermes = await startAgent({ config: keylessConfig(model.url), env: { OPENAI_API_KEY: "sk-real-openai" } });
  t.after(() => hermes.close());
  await hermes.initialize();
  const cwd = await makeTempDir();
  const seen = model.requests.length;
  await assert.rejects(hermes.newSession(cwd), (error: any) => error.code === -32000 && /No API key for provider "openai"/.test(error.message));
  await assert.rejects(
    hermes.agent.request("authenticate", { methodId: "openai-api-key" }),
    (error: any) => error.code === -32602 && /OPENAI_API_KEY is not sent to http:\/\/127\.0\.0\.1/.test(error.message),
  );
  await hermes.agent.request("authenticate", { methodId: "openai-api-key", _meta: { "hermes/apiKey": "sk-for-this-endpoint" } });
  const { sessionId } = await hermes.newSession(cwd);
  model.enqueue({ text: "OWN-KEY" });
  await hermes.prompt(sessionId, "hello");
  const sent = model.requests.slice(seen).map((request) => request.headers.authorization);
  assert.ok(sent.length > 0);
  assert.deepEqual([...new Set(sent)], ["Bearer sk-for-this-endpoint"], "only the endpoint's own key was sent");
  assert.doesNotMatch(readFileSync(path.join(hermes.home, ".env"), "utf8"), /sk-real-openai/);
});
