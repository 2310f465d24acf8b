// The web tools over a real ACP connection (the built bundle on stdio): web_fetch asks for the
// host through session/request_permission, "always" saves a {web: host} rule that the next
// fetch honours without asking, the card shows the page's URL and title; the private-network
// guard refuses 127.0.0.1 when web.allow_private does not list it (nothing asked, nothing sent);
// web_search is offered only when a backend is configured, and answers from it.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { parse } from "yaml";
import { scriptedConfig, sessionUpdates, startHermes, makeTempDir } from "../support/acp-harness";
import { useScriptedModel } from "../support/scripted-model";
import { startServer, type TestServer } from "../support/web-servers";

const scripted = useScriptedModel();
let site: TestServer;

const PAGE = `<!doctype html><html><head><title>Hermes field notes</title></head><body><main><article>
<h1>Field notes</h1><p>The agent reads pages as markdown, keeping the <a href="/links/kept">links</a> it finds. This paragraph is long enough for the article view to take it as the main content of the page, which it is.</p>
<p>A second paragraph, so there is an article here and not a fragment; it says nothing more than that, at some length, for the same reason.</p>
</article></main></body></html>`;

before(async () => {
  site = await startServer({
    "/notes": (_req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE),
    "/search": (_req, res) =>
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({ query: "hermes", results: [{ url: "https://example.org/hermes", title: "Hermes at example.org", content: "A page about Hermes.", engine: "x", engines: ["x"], score: 1, category: "general" }], answers: [], suggestions: [] }),
      ),
  });
});

after(async () => {
  await site.close();
});

const toolNames = (body: { tools?: { function?: { name?: string } }[] }) => (body.tools ?? []).map((tool) => tool.function?.name);

/** The web tools wait for tool_search (they are not sent with every call): listed in its description. */
function loadable(body: { tools?: { function: { name: string; description?: string } }[] }, name: string): boolean {
  const search = (body.tools ?? []).find((tool) => tool.function.name === "tool_search");
  return new RegExp(`\\n- ${name}: `).test(search?.function.description ?? "");
}

test("web_fetch asks for the host over ACP; always-allow is saved and honoured; the card names the page", async () => {
  const model = scripted();
  const url = `${site.origin}/notes`;
  model.enqueue(
    { toolCalls: [{ id: "f1", name: "web_fetch", arguments: { url } }] },
    { text: "Read it." },
    { toolCalls: [{ id: "f2", name: "web_fetch", arguments: { url } }] },
    { text: "Read it again." },
  );
  const hermes = await startHermes({
    config: scriptedConfig(model.url, { web: { allow_private: ["127.0.0.1"], search: { backend: "searxng", url: site.origin } } }),
    permission: (request) => request.options.find((option) => option.optionId === "allow_always")?.optionId ?? "cancelled",
  });
  try {
    await hermes.initialize();
    const project = await makeTempDir("hermes-web-");
    const { sessionId } = await hermes.newSession(project);
    assert.equal((await hermes.prompt(sessionId, "Read the notes")).stopReason, "end_turn");

    // One question, about this host, with the per-host choices.
    assert.equal(hermes.permissionRequests.length, 1);
    const asked = hermes.permissionRequests[0]!;
    assert.equal(asked.toolCall.toolCallId, "f1");
    assert.equal(asked.toolCall.title, `Fetch ${url}`);
    assert.deepEqual(
      asked.options.map((option) => option.name),
      ["Allow once", "Allow fetches from 127.0.0.1 for this session", "Always allow 127.0.0.1 (saved to config.yaml)", "Reject", "Always reject 127.0.0.1 (saved to config.yaml)"],
    );
    const rules = (parse(readFileSync(path.join(hermes.home, "config.yaml"), "utf8")) as { approvals: { rules: unknown[] } }).approvals.rules;
    assert.deepEqual(rules, [{ web: "127.0.0.1", decision: "allow" }]);

    // The card: kind fetch, the page's title, a link to it.
    const updates = sessionUpdates(hermes, sessionId);
    const start = updates.find((u) => u.sessionUpdate === "tool_call" && u.toolCallId === "f1");
    assert.ok(start && start.sessionUpdate === "tool_call");
    assert.equal(start.kind, "fetch");
    const done = updates.find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "f1" && u.status === "completed");
    assert.ok(done && done.sessionUpdate === "tool_call_update");
    assert.ok(
      updates.some((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "f1" && u.title === "Fetch Hermes field notes"),
      "the card's title becomes the page's",
    );
    const link = done.content?.find((c) => c.type === "content" && c.content.type === "resource_link");
    assert.ok(link && link.type === "content" && link.content.type === "resource_link");
    assert.equal(link.content.uri, url);
    assert.equal(link.content.name, "Hermes field notes");

    // The model read markdown with the link made absolute; it was offered both web tools.
    const second = model.requests[1]!.body;
    const result = second.messages.find((m: { role: string; tool_call_id?: string }) => m.role === "tool" && m.tool_call_id === "f1") as { content: string };
    assert.match(result.content, /Title: Hermes field notes/);
    assert.ok(result.content.includes(`[links](${site.origin}/links/kept)`), result.content);
    assert.ok(loadable(model.requests[0]!.body, "web_fetch"), "web_fetch can be loaded");
    assert.ok(loadable(model.requests[0]!.body, "web_search"), "web_search can be loaded");

    // The saved rule answers the next fetch: no new question.
    assert.equal((await hermes.prompt(sessionId, "Again")).stopReason, "end_turn");
    assert.equal(hermes.permissionRequests.length, 1);
    assert.equal(site.requests.filter((request) => request.url === "/notes").length, 2);
  } finally {
    await hermes.close();
  }
});

test("without web.allow_private, 127.0.0.1 is refused before anything is asked or sent; web_search is not offered", async () => {
  const model = scripted();
  const first = model.requests.length;
  model.enqueue({ toolCalls: [{ id: "f1", name: "web_fetch", arguments: { url: `${site.origin}/notes` } }] }, { text: "Refused." });
  const hermes = await startHermes({ config: scriptedConfig(model.url), permission: "allow" });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(await makeTempDir("hermes-web-"));
    const before = site.requests.length;
    assert.equal((await hermes.prompt(sessionId, "Read the notes")).stopReason, "end_turn");
    assert.equal(hermes.permissionRequests.length, 0);
    assert.equal(site.requests.length, before);
    const failed = sessionUpdates(hermes, sessionId).find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "f1" && u.status === "failed");
    assert.ok(failed, "the card ends failed");
    const result = model.requests[first + 1]!.body.messages.find((m: { role: string }) => m.role === "tool") as { content: string };
    assert.match(result.content, /Refused: 127\.0\.0\.1 is not on the public internet \(loopback\)/);
    assert.ok(loadable(model.requests[first]!.body, "web_fetch"));
    assert.ok(!loadable(model.requests[first]!.body, "web_search") && !toolNames(model.requests[first]!.body).includes("web_search"), "web_search is not offered at all");
  } finally {
    await hermes.close();
  }
});

test("web_search answers from the configured backend over ACP, with the results as links on the card", async () => {
  const model = scripted();
  const first = model.requests.length;
  model.enqueue({ toolCalls: [{ id: "s1", name: "web_search", arguments: { query: "hermes" } }] }, { text: "Found it." });
  const hermes = await startHermes({ config: scriptedConfig(model.url, { web: { search: { backend: "searxng", url: site.origin } } }) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(await makeTempDir("hermes-web-"));
    assert.equal((await hermes.prompt(sessionId, "Search")).stopReason, "end_turn");
    assert.equal(hermes.permissionRequests.length, 0, "searching asks nothing");
    const done = sessionUpdates(hermes, sessionId).find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "s1" && u.status === "completed");
    assert.ok(done && done.sessionUpdate === "tool_call_update");
    const link = done.content?.find((c) => c.type === "content" && c.content.type === "resource_link");
    assert.ok(link && link.type === "content" && link.content.type === "resource_link" && link.content.uri === "https://example.org/hermes");
    const result = model.requests[first + 1]!.body.messages.find((m: { role: string }) => m.role === "tool") as { content: string };
    assert.match(result.content, /1\. Hermes at example\.org\n {3}https:\/\/example\.org\/hermes\n {3}A page about Hermes\./);
  } finally {
    await hermes.close();
  }
});
