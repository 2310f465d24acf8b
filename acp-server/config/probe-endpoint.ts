// One cheap request to a model endpoint, to prove before the first prompt that something listens
// there, speaks HTTP and accepts the key: GET <base_url>/models (listed by OpenAI-compatible
// servers and by Anthropic). It costs no tokens. Used by `hermes acp --check` (and doctor).
import type { ResolvedModel } from "./resolve-model";
import { counted } from "../util/plural";

export type EndpointProbe =
  | { ok: true; url: string; status: number; detail: string; models?: string[] }
  | { ok: false; url: string; status?: number; detail: string; keyRejected?: boolean };

const DEFAULT_TIMEOUT_MS = 5_000;
/** Anthropic's API wants a version header on every request, /models included. */
const ANTHROPIC_VERSION = "2023-06-01";

export async function probeEndpoint(
  model: Pick<ResolvedModel, "baseUrl" | "apiKey" | "apiMode">,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<EndpointProbe> {
  const url = `${model.baseUrl.replace(/\/+$/, "")}/models`;
  const headers: Record<string, string> = { accept: "application/json" };
  if (model.apiMode === "anthropic_messages") {
    headers["anthropic-version"] = ANTHROPIC_VERSION;
    if (model.apiKey) headers["x-api-key"] = model.apiKey;
  } else if (model.apiKey) {
    headers.authorization = `Bearer ${model.apiKey}`;
  }

  let response: Response;
  try {
    response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    return { ok: false, url, detail: describeNetworkError(error, timeoutMs) };
  }
  const status = response.status;
  const body = await response.text().catch(() => ""); // expected: a body that cannot be read is judged by its status alone
  if (status === 401 || status === 403) {
    return { ok: false, url, status, keyRejected: true, detail: `the endpoint rejected the API key (HTTP ${status})` };
  }
  if (status >= 500) return { ok: false, url, status, detail: `the endpoint answered HTTP ${status}${snippet(body)}` };
  if (status >= 200 && status < 300) {
    const models = listedModels(body);
    return { ok: true, url, status, models, detail: models ? `answered (${counted(models.length, "model")} listed)` : `answered HTTP ${status}` };
  }
  // 404 and friends: some servers list no models, but an HTTP server is listening there.
  return { ok: true, url, status, detail: `reachable (GET /models answered HTTP ${status})` };
}

function listedModels(body: string): string[] | undefined {
  try {
    const data = (JSON.parse(body) as { data?: { id?: unknown }[] }).data;
    if (!Array.isArray(data)) return undefined;
    return data.map((entry) => entry?.id).filter((id): id is string => typeof id === "string");
  } catch {
    // expected: a body that is not an OpenAI model list lists no models
    return undefined;
  }
}

function describeNetworkError(error: unknown, timeoutMs: number): string {
  const err = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err.name === "TimeoutError" || err.name === "AbortError") return `no answer within ${timeoutMs / 1000} s`;
  const code = err.cause?.code;
  switch (code) {
    case "ECONNREFUSED":
      return "connection refused: nothing is listening there";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "the host name does not resolve (offline, or a typo in base_url?)";
    case "ECONNRESET":
      return "the connection was reset";
  }
  // fetch refuses the ports on the WHATWG "bad ports" list (9, 25, 6000, ...) before connecting.
  if (err.cause?.message === "bad port") return "fetch refuses to connect to this port (it is on the blocked-ports list); use another port";
  if (code?.startsWith("ERR_TLS") || code?.includes("CERT")) return `TLS failed (${code})`;
  return err.cause?.message ?? err.message ?? String(error);
}

function snippet(body: string): string {
  const text = body.replace(/\s+/g, " ").trim().slice(0, 160);
  return text ? `: ${text}` : "";
}
