// config.yaml's `web` section: web_fetch's limits and private-network exceptions, and
// web_search's backend. Its own file so schema.ts gains one line (like mcp-schema.ts). The schemas
// are built on first use (z.lazy): the web settings' module is imported by every first session/new,
// which, with config.yaml cached (config-cache.ts), validates nothing with them.
import * as z from "zod";
import { parseRange } from "../util/ip-address";

export const SEARCH_BACKENDS = ["searxng", "brave", "tavily", "exa"] as const;
export type SearchBackendId = (typeof SEARCH_BACKENDS)[number];

/** The variable each keyed backend reads its key from ($HERMES_HOME/.env or the environment). */
export const SEARCH_KEY_ENV: Record<Exclude<SearchBackendId, "searxng">, string> = {
  brave: "BRAVE_SEARCH_API_KEY",
  tavily: "TAVILY_API_KEY",
  exa: "EXA_API_KEY",
};

const addressRange = () =>
  z.string().refine(
    (text) => {
      try {
        parseRange(text);
        return true;
      } catch {
        // expected: a value parseRange rejects is reported by the schema's message
        return false;
      }
    },
    { message: "an IP address or CIDR range, e.g. 127.0.0.1, 10.0.0.0/8, fd00::/8" },
  );

export const WebSearchConfigSchema = z.lazy(() =>
  z
    .object({
      /** Which backend web_search uses; unset = no web_search tool. */
      backend: z.enum(SEARCH_BACKENDS).optional(),
      /**
       * The backend's base URL: required for searxng (your instance), optional for the others
       * (a proxy or a compatible service; default their public API).
       */
      url: z.url().optional(),
      /** Results per search (the model may ask for fewer). */
      max_results: z.number().int().min(1).max(20).default(5),
      /** Seconds one search may take. */
      timeout: z.number().positive().max(300).default(20),
    })
    .strict(),
);

export const WebConfigSchema = z.lazy(() =>
  z
    .object({
      /**
       * Addresses web_fetch may reach although they are private (loopback, LAN, link-local,
       * CGNAT, ULA…): IPs or CIDR ranges. Checked on the resolved address of every hop.
       */
      allow_private: z.array(addressRange()).default([]),
      /** Seconds one fetch may take, redirects and body included. */
      timeout: z.number().positive().max(600).default(30),
      /** Largest body read, in MB (after decompression); the rest is cut. */
      max_mb: z.number().positive().max(100).default(5),
      /** Redirects followed before giving up. */
      max_redirects: z.number().int().min(0).max(20).default(5),
      /**
       * The HTTP proxy web_fetch goes through (http://host:port, credentials allowed), or "off";
       * unset: HTTPS_PROXY / HTTP_PROXY / NO_PROXY from the environment.
       */
      proxy: z
        .union([z.literal("off"), z.url({ protocol: /^http$/, error: 'an http:// proxy URL (e.g. http://proxy.corp:3128) or "off"' })])
        .optional(),
      search: WebSearchConfigSchema.default(WebSearchConfigSchema.parse({})),
    })
    .strict(),
);

export type WebConfig = z.infer<typeof WebConfigSchema>;
export type WebSearchConfig = z.infer<typeof WebSearchConfigSchema>;
