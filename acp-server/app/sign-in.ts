// `authenticate` with an API-key method, and the auth-required error that sends clients there.
// The key is checked with one free request (GET <base_url>/models) before it is stored, so a
// mistyped key is refused at sign-in and not at the first prompt.
import { configErrorFix } from "../config/config-error";
import { setConfigValue } from "../config/config-edit";
import { envValueProblem, setEnvVariable } from "../config/env-file";
import { loadConfig } from "../config/load";
import { probeEndpoint } from "../config/probe-endpoint";
import { endpointKeyVariable, providerServes } from "../config/key-hosts";
import { PROVIDERS } from "../config/providers";
import { resolveEntry } from "../config/resolve-model";
import { ModelEntrySchema } from "../config/schema";
import { keyVariables, signOut } from "../config/sign-out";
import { acpxCredentialVariable, API_KEY_METHODS, apiKeyMethod, AUTH_META, TERMINAL_SETUP_METHOD } from "../config/sign-in-methods";
import { AgentError, invalidParams } from "../util/agent-error";
import type { Logger } from "../util/log";
import { registerSecretValue } from "../util/secret-values";
import type { AgentRuntime } from "../runtime/runtime";

/** Auth-required (ACP's -32000) for a request that needs a usable model, with the reason and the ways to fix it. */
export function authRequiredError(runtime: AgentRuntime): AgentError<"auth_required"> {
  const { loaded, model } = runtime;
  const reason = loaded.error ? `${loaded.error}\n\n${configErrorFix(loaded)}` : model.ok ? "" : model.reason;
  // The whole reason goes in the message: editors show the message, not `data`.
  return new AgentError(
    "auth_required",
    `Hermes has no usable model.\n\n${reason}\n\nSign in with an API key (authenticate), or run \`hermes setup\` in a terminal.`,
    { authRequired: true, reason, methods: [...API_KEY_METHODS.map((m) => m.id), TERMINAL_SETUP_METHOD.id] },
  );
}

/** A sign-in as the front end passes it: the method, and the key and model when the client gave them. */
export interface SignInRequest {
  methodId: string;
  apiKey?: string;
  model?: string;
}

/**
 * Stores the key for `request.methodId` and, when config.yaml names no model, that provider and
 * its default model (or the requested one). With a usable model already and no explicit
 * key, nothing changes: a client that signs in on every start (acpx does when it
 * finds a credential) must not rewrite the user's files each time.
 */
export async function authenticate(request: SignInRequest, runtime: AgentRuntime, log: Logger): Promise<{ changed: boolean }> {
  if (request.methodId === TERMINAL_SETUP_METHOD.id) {
    throw invalidParams("hermes-setup is a terminal method: run `hermes setup` (the client must not send it to authenticate)", { methodId: request.methodId });
  }
  const method = apiKeyMethod(request.methodId);
  if (!method) throw invalidParams(`unknown sign-in method "${request.methodId}"`, { methodId: request.methodId });
  const info = PROVIDERS[method.provider];

  const given = request.apiKey;
  if (runtime.model.ok && given === undefined) return { changed: false };
  const loaded = loadConfig();
  if (loaded.error) throw invalidParams(`${loaded.error}\n\n${configErrorFix(loaded)}`, { reason: loaded.error });
  const configured = loaded.config.model;
  const baseUrl = loaded.env.HERMES_BASE_URL?.trim();
  const endpoint = baseUrl ?? configured.base_url ?? info.baseUrl ?? "";
  // The provider's own API keeps the provider's variable. Any other endpoint (base_url overridden)
  // gets a variable of its own (found by its name when the model is resolved), and the provider's variable in Hermes's environment is not taken
  // for it: that is a key for the provider, not for this host (key-hosts.ts).
  const ownApi = providerServes(method.provider, endpoint);
  const variable = ownApi ? info.keyEnv[0] : endpointKeyVariable(endpoint);
  if (variable === undefined) throw invalidParams(`${method.label} at ${endpoint} has no place for an API key`, { methodId: request.methodId });
  const envNames = [acpxCredentialVariable(method.id), ...(ownApi ? info.keyEnv : [])];
  const fromEnv = envNames.map((name) => process.env[name]?.trim()).find(Boolean);
  const key = (given ?? fromEnv)?.trim();
  if (!key) {
    const whereFrom = ownApi ? `set ${variable} in Hermes's environment` : `(${info.keyEnv[0]} is not sent to ${endpoint}, which is not ${method.label}'s API)`;
    throw invalidParams(
      `No ${method.label} key was given: pass it in _meta "${AUTH_META.apiKey}", ${whereFrom}, or run \`hermes setup\` in a terminal.`,
      { methodId: method.id },
    );
  }
  const problem = envValueProblem(key);
  if (problem) throw invalidParams(`That does not look like an API key: ${problem}.`, { methodId: method.id });
  registerSecretValue(key, `the ${method.label} API key`);

  const providerOverride = loaded.env.HERMES_PROVIDER?.trim();
  const provider = providerOverride || configured.provider;
  if (provider && provider !== method.provider) {
    throw invalidParams(
      `Hermes is configured for provider "${provider}"${providerOverride ? " (HERMES_PROVIDER)" : ` (${loaded.configPath})`}; sign in with ${provider}-api-key, or run \`hermes setup\` to switch to ${method.label}.`,
      { configuredProvider: provider },
    );
  }
  const requested = request.model?.trim();
  const name = requested || (configured.name ?? method.defaultModel);

  // One free request proves the key before anything is written.
  const entry = ModelEntrySchema.safeParse({ ...configured, provider: method.provider, name, api_key: key, ...(baseUrl ? { base_url: baseUrl } : {}) });
  if (!entry.success) throw invalidParams(`the model entry is not valid: ${entry.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}`);
  const resolved = resolveEntry(entry.data, loaded, { where: "model" });
  if (!resolved.ok) throw invalidParams(resolved.reason);
  const probe = await probeEndpoint(resolved.model);
  if (!probe.ok && probe.keyRejected) throw invalidParams(`${method.label} rejected the key (HTTP ${probe.status}): nothing was stored.`, { status: probe.status });
  if (!probe.ok) log.warn("sign-in: the key could not be checked; storing it anyway", { url: probe.url, detail: probe.detail });

  const envFile = setEnvVariable(loaded.home, variable, key);
  if (!configured.provider || !configured.name || name !== configured.name) {
    const failed =
      (!configured.provider ? setConfigValue(loaded.configPath, ["model", "provider"], method.provider) : undefined) ??
      (name !== configured.name ? setConfigValue(loaded.configPath, ["model", "name"], name) : undefined);
    if (failed) throw new AgentError("config", `The key was stored in ${envFile}, but the model could not be set: ${failed}`, {});
  }
  log.info("signed in", { method: method.id, model: `${method.provider}/${name}`, envFile });
  return { changed: true };
}

/**
 * ACP `logout`: the keys stored in $HERMES_HOME/.env go, and so do the key variables in this
 * process's environment (an editor's agent settings put them there; they come back when it starts
 * Hermes again). New sessions then need a sign-in. A key that config.yaml itself holds cannot be
 * taken away from here: the stored ones are still removed, and the error names that key.
 */
export async function logout(loadRuntime: () => Promise<AgentRuntime>, log: Logger): Promise<{ removed: string[] }> {
  const result = signOut();
  for (const name of keyVariables(undefined, Object.keys(process.env))) delete process.env[name];
  const after = await loadRuntime();
  log.info("signed out", { removed: result.removed, usable: after.model.ok });
  if (after.model.ok) {
    const source = result.remaining.find((entry) => entry.source.startsWith("model.api_key"));
    throw new AgentError(
      "invalid_request",
      `The stored keys were removed${result.removed.length ? ` (${result.removed.join(", ")})` : ""}, but Hermes still has a key: ${source ? `${source.source}; ${source.fix}` : "the model needs none"}.`,
      { removed: result.removed },
    );
  }
  return { removed: result.removed };
}
