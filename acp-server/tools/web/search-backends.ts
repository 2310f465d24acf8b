// web_search's backends, each speaking its service's own JSON API: SearXNG (GET /search
// ?format=json on your instance), Brave Search (GET /res/v1/web/search, X-Subscription-Token),
// Tavily (POST /search, bearer key) and Exa (POST /search, x-api-key). One is chosen by
// web.search.backend; its key comes from the environment or $HERMES_HOME/.env. The backend's
// address is the user's choice (a SearXNG on localhost is normal), so the SSRF guard does not
// apply; redirects are refused instead, so a key never follows one to another host.
import { endpointKeyVariable, endpointOrigin } from "../../config/key-hosts";
import { SEARCH_KEY_ENV, type SearchBackendId } from "../../config/web-schema";
import { ToolError } from "../registry";
import type { WebSettings } from "./web-settings";

export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
  /** When the page was published, as the backend wrote it. */
  published?: string;
}

export interface SearchOutcome {
  hits: SearchHit[];
  /** A direct answer some backends add (SearXNG's answers). */
  answer?: string;
}

export interface SearchBackend {
  id: SearchBackendId;
  /** For the result header: "Brave Search". */
  label: string;
  search(query: string, count: number, signal: AbortSignal): Promise<SearchOutcome>;
}

const LABELS: Record<SearchBackendId, string> = { searxng: "SearXNG", brave: "Brave Search", tavily: "Tavily", exa: "Exa" };
const DEFAULT_BASE: Record<Exclude<SearchBackendId, "searxng">, string> = {
  brave: "https://api.search.brave.com",
  tavily: "https://api.tavily.com",
  exa: "https://api.exa.ai",
};
/** A search answer is small; anything bigger is not a search answer. */
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/** The configured backend, or why there is none (shown nowhere but logs: the tool is simply not offered). */
export function configuredBackend(settings: WebSettings): SearchBackend | string {
  const { backend: id, url } = settings.config.search;
  if (!id) return "no web.search.backend in config.yaml";
  if (id === "searxng") {
    if (!url) return "web.search.backend is searxng but web.search.url (the instance's address) is not set";
    return { id, label: LABELS[id], search: (query, count, signal) => searxng(url, query, count, signal) };
  }
  const base = url ?? DEFAULT_BASE[id];
  // The service's variable (BRAVE_SEARCH_API_KEY, ...) goes only to the service's own API; a proxy
  // or compatible service in web.search.url reads a key of its own (config/key-hosts.ts).
  const own = endpointOrigin(base) !== undefined && endpointOrigin(base) === endpointOrigin(DEFAULT_BASE[id]);
  const keyName = own ? SEARCH_KEY_ENV[id] : endpointKeyVariable(base);
  if (!keyName) return `web.search.url is not a URL: ${base}`;
  const key = settings.env[keyName]?.trim();
  if (!key) return `web.search.backend is ${id} but ${keyName} is not set${own ? "" : ` (web.search.url is not ${LABELS[id]}'s own API, so ${SEARCH_KEY_ENV[id]} is not sent there)`}`;
  const search = id === "brave" ? brave : id === "tavily" ? tavily : exa;
  return { id, label: LABELS[id], search: (query, count, signal) => search({ base, key, keyName }, query, count, signal) };
}

interface Keyed {
  base: string;
  key: string;
  keyName: string;
}

async function searxng(base: string, query: string, count: number, signal: AbortSignal): Promise<SearchOutcome> {
  const url = endpoint(base, "search");
  url.searchParams.set("q", query);
  url.searchParams.set("format", "json");
  const body = await requestJson("SearXNG", url, { method: "GET", headers: { accept: "application/json" } }, signal, (status) =>
    status === 403 ? "the instance does not serve JSON: add json to search.formats in its settings.yml" : undefined,
  );
  const results = arrayOf(field(body, "results"));
  const answers = arrayOf(field(body, "answers"))
    .map((answer) => (typeof answer === "string" ? answer : text(field(answer, "answer"))))
    .filter(Boolean);
  return {
    hits: results.slice(0, count).map((result) => ({
      title: text(field(result, "title")),
      url: text(field(result, "url")),
      snippet: text(field(result, "content")),
      ...optional("published", field(result, "publishedDate")),
    })),
    ...(answers.length ? { answer: answers.join("\n") } : {}),
  };
}

async function brave(api: Keyed, query: string, count: number, signal: AbortSignal): Promise<SearchOutcome> {
  const url = endpoint(api.base, "res/v1/web/search");
  url.searchParams.set("q", query);
  url.searchParams.set("count", String(count));
  const body = await requestJson("Brave Search", url, { method: "GET", headers: { accept: "application/json", "x-subscription-token": api.key } }, signal, keyProblem(api));
  return {
    hits: arrayOf(field(field(body, "web"), "results"))
      .slice(0, count)
      .map((result) => ({
        title: plain(text(field(result, "title"))),
        url: text(field(result, "url")),
        // Brave marks the matched words with <strong>; the model wants the words.
        snippet: plain([text(field(result, "description")), ...arrayOf(field(result, "extra_snippets")).map(text)].filter(Boolean).join(" … ")),
        ...optional("published", field(result, "page_age") ?? field(result, "age")),
      })),
  };
}

async function tavily(api: Keyed, query: string, count: number, signal: AbortSignal): Promise<SearchOutcome> {
  const body = await requestJson(
    "Tavily",
    endpoint(api.base, "search"),
    {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/json", authorization: `Bearer ${api.key}` },
      body: JSON.stringify({ query, max_results: count, search_depth: "basic", include_answer: false, include_raw_content: false, include_images: false }),
    },
    signal,
    keyProblem(api),
  );
  return {
    hits: arrayOf(field(body, "results"))
      .slice(0, count)
      .map((result) => ({
        title: text(field(result, "title")),
        url: text(field(result, "url")),
        snippet: text(field(result, "content")),
        ...optional("published", field(result, "published_date")),
      })),
  };
}

async function exa(api: Keyed, query: string, count: number, signal: AbortSignal): Promise<SearchOutcome> {
  const body = await requestJson(
    "Exa",
    endpoint(api.base, "search"),
    {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/json", "x-api-key": api.key },
      body: JSON.stringify({ query, numResults: count, type: "auto", contents: { highlights: { numSentences: 3, highlightsPerUrl: 2 } } }),
    },
    signal,
    keyProblem(api),
  );
  return {
    hits: arrayOf(field(body, "results"))
      .slice(0, count)
      .map((result) => {
        const highlights = arrayOf(field(result, "highlights")).map(text).filter(Boolean);
        const fallback = text(field(result, "summary")) || text(field(result, "text")).slice(0, 500);
        return {
          title: text(field(result, "title")),
          url: text(field(result, "url")),
          snippet: highlights.length ? highlights.join(" … ") : fallback,
          ...optional("published", field(result, "publishedDate")),
        };
      }),
  };
}

function keyProblem(api: Keyed): (status: number) => string | undefined {
  return (status) => (status === 401 || status === 403 ? `the key was refused: check ${api.keyName}` : undefined);
}

/** `base` + `path`, keeping a base path (a SearXNG under /searx/). */
function endpoint(base: string, path: string): URL {
  return new URL(path, base.endsWith("/") ? base : `${base}/`);
}

async function requestJson(
  label: string,
  url: URL,
  init: { method: string; headers: Record<string, string>; body?: string },
  signal: AbortSignal,
  explain: (status: number) => string | undefined = () => undefined,
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal, redirect: "error" });
  } catch (error) {
    if (signal.aborted) throw signal.reason ?? error;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new ToolError(`${label} could not be reached at ${url.origin}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
  }
  const raw = await cappedText(response, signal);
  if (!response.ok) {
    const why = explain(response.status) ?? (response.status === 429 ? "rate limited; try again later" : raw.replace(/\s+/g, " ").slice(0, 300));
    throw new ToolError(`${label} answered HTTP ${response.status}: ${why}`);
  }
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new ToolError(`${label} answered something that is not JSON (${raw.length} characters starting ${JSON.stringify(raw.slice(0, 60))})`);
  }
}

async function cappedText(response: Response, signal: AbortSignal): Promise<string> {
  if (!response.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    // Leaving the loop early (the cap, an error) cancels the body stream.
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > MAX_RESPONSE_BYTES) throw new ToolError(`The search backend's answer is larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MB; it was not read`);
      chunks.push(chunk);
    }
  } catch (error) {
    if (signal.aborted) throw signal.reason ?? error;
    throw error;
  }
  return Buffer.concat(chunks).toString("utf8");
}

function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function text(value: unknown): string {
  return typeof value === "string" ? value.trim() : "";
}

function optional(key: "published", value: unknown): { published?: string } {
  return typeof value === "string" && value.trim() ? { [key]: value.trim() } : {};
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** Text without HTML tags, entities decoded (Brave's snippets carry both). */
function plain(html: string): string {
  return html
    .replace(/<[^>]*>/g, "")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity: string, name: string) => {
      if (!name.startsWith("#")) return ENTITIES[name.toLowerCase()] ?? entity;
      const code = /^#x/i.test(name) ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    })
    .replace(/\s+/g, " ")
    .trim();
}
