// web_search: a query → ranked links with snippets, from the backend config.yaml names
// (web/search-backends.ts). Offered to the model only when one is configured with what it needs
// (an instance URL or a key). No permission prompt: the user chose the service by configuring
// it; a query holding a credential is refused, since it would leave the machine.
import * as z from "zod";
import { containsSecret } from "../util/redact";
import type { DisplayContent } from "./context";
import { guardOutbound } from "./outbound-guard";
import { defineTool, ToolError } from "./registry";
import { configuredBackend, type SearchBackend } from "./web/search-backends";
import { webSettings } from "./web/web-settings";

const schema = z.object({
  query: z.string().trim().min(1).max(400).describe("What to search for, as you would type it into a search engine."),
  count: z.number().int().min(1).max(20).optional().describe("How many results (default: the configured web.search.max_results)."),
});

function backend(): SearchBackend {
  const found = configuredBackend(webSettings());
  if (typeof found === "string") throw new ToolError(`web_search is not configured: ${found}.`);
  return found;
}

export const webSearchTool = defineTool({
  name: "web_search",
  toolset: "web",
  description:
    "Search the web. Returns ranked results (title, URL, snippet). Use it to find pages, then web_fetch to read one. " +
    "Queries go to the search service the user configured.",
  schema,
  kind: "search",
  readOnly: true,
  maxResultChars: 20_000,
  isAvailable: () => {
    const found = configuredBackend(webSettings());
    return typeof found === "string" ? found : true;
  },
  title: (args) => `Search the web: ${args.query}`,
  handler: async (args, ctx) => {
    if (containsSecret(args.query)) throw new ToolError("The query contains what looks like a credential (a key or token); it is not sent to the search service.");
    const service = backend();
    // A known secret in disguise (encoded, reversed, split) is asked about, in every mode.
    await guardOutbound(ctx, { tool: "web_search", destination: service.label, texts: [args.query] });
    const settings = webSettings().config.search;
    const count = Math.min(args.count ?? settings.max_results, 20);
    const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(settings.timeout * 1000)]);
    let outcome;
    try {
      outcome = await service.search(args.query, count, signal);
    } catch (error) {
      if (!ctx.signal.aborted && signal.aborted) throw new ToolError(`${service.label} did not answer within ${settings.timeout} s (web.search.timeout).`);
      throw error;
    }
    const hits = outcome.hits.filter((hit) => /^https?:\/\//i.test(hit.url));
    const lines = [`${hits.length} result${hits.length === 1 ? "" : "s"} from ${service.label} for "${args.query}":`];
    if (outcome.answer) lines.push("", `Answer: ${outcome.answer}`);
    hits.forEach((hit, index) => {
      lines.push("", `${index + 1}. ${hit.title || hit.url}`, `   ${hit.url}`);
      if (hit.published) lines.push(`   Published: ${hit.published}`);
      if (hit.snippet) lines.push(`   ${hit.snippet.replace(/\s+/g, " ")}`);
    });
    const content: DisplayContent[] = hits.length
      ? hits.map((hit) => ({ type: "resource_link", uri: hit.url, name: hit.title || hit.url, ...(hit.title ? { title: hit.title } : {}), ...(hit.snippet ? { description: hit.snippet.slice(0, 300) } : {}) }))
      : [{ type: "text", text: `No results from ${service.label}.` }];
    return { output: lines.join("\n"), content };
  },
});
