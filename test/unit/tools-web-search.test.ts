// web_search against fake search services on 127.0.0.1 that speak each backend's real JSON
// API (request shape checked: method, path, parameters, where the key goes; answers shaped like
// the services' own), and the rule that the tool is offered only when a backend is configured.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { WebConfigSchema } from "../../acp-server/config/web-schema";
import { ToolRegistry } from "../../acp-server/tools/tool-set";
import { webSearchTool } from "../../acp-server/tools/web-search";
import { setWebSettings } from "../../acp-server/tools/web/web-settings";
import { recordingContext } from "../support/tool-context";
import { startServer, type TestServer } from "../support/web-servers";

const json = (value: unknown) => JSON.stringify(value);

const SEARXNG_ANSWER = {
  query: "rust async",
  number_of_results: 0,
  results: [
    {
      url: "https://rust-lang.github.io/async-book/",
      title: "Asynchronous Programming in Rust",
      content: "This book aims to be a comprehensive, up-to-date guide to using Rust's async language features.",
      engine: "duckduckgo",
      engines: ["duckduckgo", "brave"],
      positions: [1, 2],
      score: 4.0,
      category: "general",
      publishedDate: null,
    },
    { url: "https://tokio.rs/", title: "Tokio - An asynchronous Rust runtime", content: "Tokio is an asynchronous runtime for the Rust programming language.", engine: "bing", engines: ["bing"], score: 1.0, category: "general" },
    { url: "javascript:alert(1)", title: "not a link", content: "dropped", engine: "x", engines: ["x"], score: 0.1, category: "general" },
  ],
  answers: [],
  corrections: [],
  infoboxes: [],
  suggestions: ["rust async await"],
  unresponsive_engines: [],
};

const BRAVE_ANSWER = {
  type: "search",
  query: { original: "zod v4 migration", more_results_available: true },
  mixed: { type: "mixed", main: [{ type: "web", index: 0, all: false }] },
  web: {
    type: "search",
    family_friendly: true,
    results: [
      {
        type: "search_result",
        title: "Migration guide | <strong>Zod</strong>",
        url: "https://zod.dev/v4/changelog",
        is_source_local: false,
        is_source_both: false,
        description: "This <strong>migration</strong> guide lists the breaking changes in <strong>Zod</strong> 4 &amp; how to update &#x2014; in order of impact.",
        page_age: "2025-05-19T00:00:00",
        profile: { name: "Zod", url: "https://zod.dev/v4/changelog", long_name: "zod.dev", img: "https://imgs.search.brave.com/x" },
        language: "en",
        family_friendly: true,
        meta_url: { scheme: "https", netloc: "zod.dev", hostname: "zod.dev", favicon: "https://imgs.search.brave.com/y", path: "› v4 › changelog" },
        extra_snippets: ["z.string().email() is now z.email()."],
        age: "May 19, 2025",
      },
    ],
  },
};

const TAVILY_ANSWER = {
  query: "node 22 release date",
  follow_up_questions: null,
  answer: null,
  images: [],
  results: [
    {
      url: "https://nodejs.org/en/blog/release/v22.0.0",
      title: "Node.js 22 is now available!",
      content: "We're excited to announce the release of Node.js 22! Highlights include require()ing ESM graphs, WebSocket client, updates of the V8 JavaScript engine, and more!",
      score: 0.98,
      raw_content: null,
    },
  ],
  response_time: 1.09,
};

const EXA_ANSWER = {
  requestId: "b5947044c4b78efa9552a7c89b306d95",
  resolvedSearchType: "neural",
  results: [
    {
      id: "https://arxiv.org/abs/2307.06435",
      title: "A Survey of Large Language Models",
      url: "https://arxiv.org/abs/2307.06435",
      publishedDate: "2023-07-12T00:00:00.000Z",
      author: "Wayne Xin Zhao",
      highlights: ["Language is essentially a complex, intricate system of human expressions governed by grammatical rules.", "Large language models have drawn a lot of attention."],
      highlightScores: [0.46, 0.41],
    },
  ],
  searchType: "auto",
  costDollars: { total: 0.005, search: { neural: 0.005 } },
};

let server: TestServer;

before(async () => {
  server = await startServer({
    "/search": (request, response, body) => {
      // SearXNG answers GET /search?format=json; Tavily and Exa POST /search.
      if (request.method === "GET") {
        const url = new URL(request.url ?? "/", "http://x");
        if (url.searchParams.get("format") !== "json") return void response.writeHead(403).end("Forbidden");
        return void response.writeHead(200, { "content-type": "application/json" }).end(json(SEARXNG_ANSWER));
      }
      const parsed = JSON.parse(body) as Record<string, unknown>;
      if (request.headers["x-api-key"]) {
        if (request.headers["x-api-key"] !== "exa-key-123") return void response.writeHead(401, { "content-type": "application/json" }).end(json({ error: "Invalid API key" }));
        return void response.writeHead(200, { "content-type": "application/json" }).end(json({ ...EXA_ANSWER, results: EXA_ANSWER.results.slice(0, Number(parsed.numResults)) }));
      }
      if (request.headers.authorization !== "Bearer tvly-test-key") return void response.writeHead(401, { "content-type": "application/json" }).end(json({ detail: { error: "Unauthorized: missing or invalid API key." } }));
      return void response.writeHead(200, { "content-type": "application/json" }).end(json(TAVILY_ANSWER));
    },
    "/searx/search": (_request, response) => response.writeHead(403, { "content-type": "text/html" }).end("<h1>403 Forbidden</h1>"),
    "/res/v1/web/search": (request, response) => {
      if (request.headers["x-subscription-token"] !== "brave-key-123") return void response.writeHead(422, { "content-type": "application/json" }).end(json({ type: "ErrorResponse", error: { code: "SUBSCRIPTION_TOKEN_INVALID", status: 422 } }));
      response.writeHead(200, { "content-type": "application/json" }).end(json(BRAVE_ANSWER));
    },
    "/slow/search": () => {
      /* never answers */
    },
    "/html/search": (_request, response) => response.writeHead(200, { "content-type": "text/html" }).end("<html>maintenance</html>"),
  });
});

after(async () => {
  setWebSettings(WebConfigSchema.parse({}), {});
  await server.close();
});

function configure(search: Record<string, unknown>, env: Record<string, string> = {}) {
  setWebSettings(WebConfigSchema.parse({ search }), env);
}

/** The test server stands in for each service at web.search.url: another host, so its key has its own name (key-hosts.ts). */
const ownKey = () => `HERMES_127_0_0_1_${new URL(server.origin).port}_API_KEY`;

async function search(args: { query: string; count?: number }) {
  const ctx = recordingContext({ cwd: "/tmp" });
  const result = await webSearchTool.handler(args, ctx);
  return { ...result, text: result.output as string, ctx };
}

describe("web_search is offered only when a backend is configured", () => {
  test("no backend, a keyed backend without its key, SearXNG without a URL: not offered", () => {
    const registry = new ToolRegistry([webSearchTool as never]);
    configure({});
    assert.deepEqual(registry.list(), []);
    configure({ backend: "brave" });
    assert.equal(webSearchTool.isAvailable?.(), "web.search.backend is brave but BRAVE_SEARCH_API_KEY is not set");
    configure({ backend: "searxng" });
    assert.match(String(webSearchTool.isAvailable?.()), /web\.search\.url/);
    configure({ backend: "tavily" }, { TAVILY_API_KEY: "tvly-test-key" });
    assert.deepEqual(registry.list().map((tool) => tool.name), ["web_search"]);
  });
});

describe("keys stay with their hosts", () => {
  test("a service's own variable never goes to a web.search.url elsewhere; that endpoint's own variable does", async () => {
    for (const [backend, variable] of [["brave", "BRAVE_SEARCH_API_KEY"], ["tavily", "TAVILY_API_KEY"], ["exa", "EXA_API_KEY"]] as const) {
      const before = server.requests.length;
      configure({ backend, url: server.origin }, { [variable]: `${backend}-real-key` });
      assert.match(String(webSearchTool.isAvailable?.()), new RegExp(`${ownKey()} is not set \\(web\\.search\\.url is not .*'s own API, so ${variable} is not sent there\\)`), backend);
      await assert.rejects(search({ query: "x" }));
      assert.equal(server.requests.length, before, `${backend}: nothing was sent`);
      configure({ backend, url: "https://api.search.brave.com.evil.example" }, { [variable]: `${backend}-real-key` });
      assert.notEqual(webSearchTool.isAvailable?.(), true, `${backend}: a look-alike host is elsewhere too`);
    }
    configure({ backend: "tavily" }, { TAVILY_API_KEY: "tvly-test-key" });
    assert.equal(webSearchTool.isAvailable?.(), true, "the service's own API keeps its variable");
  });
});

describe("each backend's real API", () => {
  test("SearXNG: GET /search?q=…&format=json; non-http results dropped", async () => {
    configure({ backend: "searxng", url: server.origin });
    const { text, content } = await search({ query: "rust async" });
    const request = server.requests.at(-1)!;
    assert.equal(request.method, "GET");
    assert.equal(request.url, "/search?q=rust+async&format=json");
    assert.match(text, /^2 results from SearXNG for "rust async":/);
    assert.match(text, /1\. Asynchronous Programming in Rust\n {3}https:\/\/rust-lang\.github\.io\/async-book\/\n {3}This book aims/);
    assert.ok(!text.includes("javascript:"));
    assert.deepEqual(content?.[1], {
      type: "resource_link",
      uri: "https://tokio.rs/",
      name: "Tokio - An asynchronous Rust runtime",
      title: "Tokio - An asynchronous Rust runtime",
      description: "Tokio is an asynchronous runtime for the Rust programming language.",
    });
  });

  test("SearXNG under a path, with JSON turned off: the error says how to turn it on", async () => {
    configure({ backend: "searxng", url: `${server.origin}/searx` });
    await assert.rejects(search({ query: "x" }), /SearXNG answered HTTP 403: the instance does not serve JSON: add json to search\.formats/);
    assert.equal(server.requests.at(-1)!.url, "/searx/search?q=x&format=json");
  });

  test("Brave: GET /res/v1/web/search with X-Subscription-Token; <strong> and entities become plain text", async () => {
    configure({ backend: "brave", url: server.origin, max_results: 3 }, { [ownKey()]: "brave-key-123" });
    const { text } = await search({ query: "zod v4 migration" });
    const request = server.requests.at(-1)!;
    assert.equal(request.url, "/res/v1/web/search?q=zod+v4+migration&count=3");
    assert.equal(request.headers.accept, "application/json");
    assert.match(text, /1\. Migration guide \| Zod\n {3}https:\/\/zod\.dev\/v4\/changelog\n {3}Published: 2025-05-19T00:00:00\n {3}This migration guide lists the breaking changes in Zod 4 & how to update — in order of impact\. … z\.string\(\)\.email\(\) is now z\.email\(\)\./);
    configure({ backend: "brave", url: server.origin }, { [ownKey()]: "wrong" });
    await assert.rejects(search({ query: "x" }), /Brave Search answered HTTP 422: .*SUBSCRIPTION_TOKEN_INVALID/);
  });

  test("Tavily: POST /search with a bearer key and its JSON body", async () => {
    configure({ backend: "tavily", url: server.origin }, { [ownKey()]: "tvly-test-key" });
    const { text } = await search({ query: "node 22 release date", count: 2 });
    const request = server.requests.at(-1)!;
    assert.equal(request.method, "POST");
    assert.equal(request.headers["content-type"], "application/json");
    assert.deepEqual(JSON.parse(request.body), { query: "node 22 release date", max_results: 2, search_depth: "basic", include_answer: false, include_raw_content: false, include_images: false });
    assert.match(text, /1\. Node\.js 22 is now available!\n {3}https:\/\/nodejs\.org\/en\/blog\/release\/v22\.0\.0\n {3}We're excited/);
    configure({ backend: "tavily", url: server.origin }, { [ownKey()]: "tvly-wrong" });
    await assert.rejects(search({ query: "x" }), /Tavily answered HTTP 401: the key was refused: check HERMES_127_0_0_1_\d+_API_KEY/);
  });

  test("Exa: POST /search with x-api-key, numResults and highlights", async () => {
    configure({ backend: "exa", url: server.origin }, { [ownKey()]: "exa-key-123" });
    const { text } = await search({ query: "llm survey", count: 1 });
    const request = server.requests.at(-1)!;
    assert.deepEqual(JSON.parse(request.body), { query: "llm survey", numResults: 1, type: "auto", contents: { highlights: { numSentences: 3, highlightsPerUrl: 2 } } });
    assert.match(text, /1\. A Survey of Large Language Models\n {3}https:\/\/arxiv\.org\/abs\/2307\.06435\n {3}Published: 2023-07-12T00:00:00\.000Z\n {3}Language is essentially .* … Large language models have drawn/);
    configure({ backend: "exa", url: server.origin }, { [ownKey()]: "nope" });
    await assert.rejects(search({ query: "x" }), /Exa answered HTTP 401: the key was refused: check HERMES_127_0_0_1_\d+_API_KEY/);
  });
});

describe("failures are clear", () => {
  test("a backend that never answers ends at web.search.timeout", async () => {
    configure({ backend: "searxng", url: `${server.origin}/slow`, timeout: 0.3 });
    await assert.rejects(search({ query: "x" }), /SearXNG did not answer within 0.3 s \(web\.search\.timeout\)/);
  });

  test("an answer that is not JSON, and a backend that is down", async () => {
    configure({ backend: "searxng", url: `${server.origin}/html` });
    await assert.rejects(search({ query: "x" }), /SearXNG answered something that is not JSON/);
    const gone = await startServer({});
    await gone.close();
    configure({ backend: "searxng", url: gone.origin });
    await assert.rejects(search({ query: "x" }), /SearXNG could not be reached at http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/);
  });

  test("a query holding a credential is not sent", async () => {
    configure({ backend: "searxng", url: server.origin });
    const before = server.requests.length;
    await assert.rejects(search({ query: `why does ghp_${"aBcD1234eFgH5678iJkL9012mNoP3456qRsT"} fail` }), /looks like a credential/);
    assert.equal(server.requests.length, before);
  });
});
