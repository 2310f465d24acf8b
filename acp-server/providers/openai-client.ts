// The `openai` SDK client both OpenAI-family providers (Chat Completions, Responses) use,
// imported on first use, and the id given to a tool call a server sent without one.
import { providerServes } from "../config/key-hosts";
import { sdkLogger } from "../util/log";
import { randomUUID } from "node:crypto";
import type OpenAI from "openai";
import { createKeepAliveFetch } from "./http-fetch";
import type { SdkProviderBase } from "./sdk-provider";

export type OpenAIModule = typeof import("openai");

export async function loadOpenAIClient(options: SdkProviderBase, maxRetries = 0): Promise<{ module: OpenAIModule; client: OpenAI }> {
  const module = await import("openai");
  const client = new module.default({
    // The SDK refuses to start without a key; local servers ignore this placeholder.
    apiKey: options.apiKey ?? "not-needed",
    baseURL: options.baseURL,
    defaultHeaders: options.headers,
    timeout: options.timeoutMs,
    // The agent loop retries itself (with backoff, retry-after, notices, then fallbacks).
    maxRetries,
    // Never leak OPENAI_ORG_ID / OPENAI_PROJECT_ID from the environment to other vendors, nor to
    // another host set as OpenAI's base_url (keys and account ids stay with their hosts: key-hosts.ts).
    ...(options.provider === "openai" && providerServes("openai", options.baseURL) ? {} : { organization: null, project: null }),
    // stdout carries the ACP JSON-RPC stream: the SDK's logs (OPENAI_LOG=debug) go to the
    // redacting logger (stderr and the log file), never console: debug lines carry headers.
    logger: sdkLogger("openai-sdk"),
    // Keep-alive http(s) instead of the global fetch's heavier machinery (http-fetch.ts).
    fetch: createKeepAliveFetch(),
  });
  return { module, client };
}

/** An id in OpenAI's style for a tool call that arrived without one. */
export function generatedCallId(): string {
  return `call_${randomUUID().replace(/-/g, "").slice(0, 24)}`;
}
