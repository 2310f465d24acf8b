// What the agent needs beyond the protocol: configuration, the models it may call and
// their providers. Loaded on demand (right after `initialize` is answered), so parsing
// YAML and loading the tools never delays the editor's handshake.
import type { ModelChoice } from "../agent/model-choice";
import path from "node:path";
import { loadConfigCached } from "../config/config-cache";
import type { LoadedConfig } from "../config/load";
import { discoverModels } from "../config/model-discovery";
import { imageLimitsFor } from "../config/model-vision";
import { probeLocalServers } from "../config/probe-local";
import { resolveEntry, resolveModel, resolveModelSet, thinks, type ModelResolution, type ModelSet, type ResolvedModel } from "../config/resolve-model";
import { ModelEntrySchema } from "../config/model-entry-schema";
import { createProvider } from "../providers/create-provider";
import type { ApprovalRules } from "../security/approval-rules";
import { WorkspaceCheckpoints } from "../checkpoints/workspace-checkpoints";
import { SessionStore } from "../sessions/session-store";
import { setWebSettings } from "../tools/web/web-settings";
import { setBrowserSettings } from "../tools/browser/browser-settings";
import { toolJsonSchema } from "../tools/registry";
import { ToolRegistry } from "../tools/tool-set";
import type { ModelProvider } from "../providers/types";
import { configureLogging, type Logger } from "../util/log";
import { registerSecretsFromEnv, registerSecretValue } from "../util/secret-values";

export interface AgentRuntime {
  loaded: LoadedConfig;
  /** Every session's journal and the search index over them. */
  sessions: SessionStore;
  /**
   * Permission answers saved in config.yaml. Loaded with the tools (loadTools(): a prompt awaits it
   * first); reading it before throws. Its path globs are not a first session/new's cost.
   */
  readonly approvals: ApprovalRules;
  /**
   * The built-in tools every session starts from. Pending until loadTools() has run: a session
   * opens without them (their modules and schemas are a large part of a first session/new), and
   * whatever lists or runs tools (a prompt, the system prompt, the warm-up) awaits loadTools first.
   */
  tools: ToolRegistry;
  /** Loads the built-in tools into `tools`, and the saved approvals (once; later calls share the one promise). */
  loadTools(): Promise<ToolRegistry>;
  /** Checkpoint stores per workspace (opened on first use), for the loop and /undo, /rollback. */
  checkpoints: WorkspaceCheckpoints;
  /** The main model, or why there is none. */
  model: ModelResolution;
  /** Main, fallbacks, picker choices and auxiliary (when there is a main model). */
  models?: ModelSet;
  /** What to call for a session: its model (or the main one), then the fallbacks. */
  /** `thinking: false`: the same models with their configured extended thinking / reasoning effort left out. */
  chainFor(modelId?: string, options?: { thinking?: boolean }): ModelChoice[];
  /** A choice the picker offers, by id. */
  findModel(modelId: string): ResolvedModel | undefined;
  /** Everything the picker offers: configured models, then what the endpoint lists (GET /models). */
  pickerChoices(): Promise<ResolvedModel[]>;
  /** The model for side jobs (titles, summaries): `auxiliary` in config, else the main model. */
  auxiliary(): ModelChoice | undefined;
  /** The model that looks at images for vision_analyze and for a text-only model (ModelSet.vision), if any. */
  visionModel(): ModelChoice | undefined;
  /** Loads a model's SDK ahead of its first call. */
  warmUp(modelId?: string): Promise<void>;
  /**
   * Does ahead of time, in the idle moments after `initialize` is answered, what the first
   * session/new and prompt would otherwise wait for (see prepareFirstSession). Called any
   * number of times, it runs once; it never rejects. Between steps it waits for `quiet` (requests
   * the user is waiting on, which do the steps they need themselves, go first).
   */
  prepare(cwd: string, quiet?: () => Promise<void>): Promise<void>;
}

export async function loadAgentRuntime(log: Logger, options: { stderrLevel?: "warn" | "error" } = {}): Promise<AgentRuntime> {
  // config.yaml unchanged since the last start: no YAML, no schema (config/config-cache.ts).
  const loaded = await loadConfigCached({ log });
  configureLogging({ level: loaded.config.logging.level, stderrLevel: options.stderrLevel ?? loaded.config.logging.level });
  // The agent's own credentials are masked by value wherever they turn up (plain, reversed,
  // base64, hex): a command that prints them in disguise shows "[REDACTED]".
  registerSecretsFromEnv(loaded.env);
  if (loaded.error) log.warn(`configuration problem:\n${loaded.error}`);

  const sessions = new SessionStore({ home: loaded.home, log });
  const tools = ToolRegistry.pending();
  let approvals: ApprovalRules | undefined;
  let loadingTools: Promise<ToolRegistry> | undefined;
  const loadTools = () =>
    (loadingTools ??= Promise.all([import("../tools/all-tools"), import("../security/approval-rules")]).then(([{ builtinTools }, { ApprovalRules }]) => {
      tools.provide(builtinTools());
      approvals = new ApprovalRules(loaded.config.approvals.rules, loaded.configPath, log);
      return tools;
    }));
  const savedApprovals = () => {
    if (!approvals) throw new Error("the saved approvals load with the tools: await loadTools() first");
    return approvals;
  };
  setWebSettings(loaded.config.web, loaded.env);
  setBrowserSettings(loaded.config.browser, loaded.home);
  const checkpoints = new WorkspaceCheckpoints(loaded.config.checkpoints, loaded.home, log);
  let model = resolveModel(loaded);
  if (!model.ok && !loaded.error && /^No model is configured/.test(model.reason)) model = await localModel(loaded, model, log);
  const shared = { loaded, sessions, tools, loadTools, checkpoints, model };
  if (!model.ok) {
    log.warn(`no usable model: ${model.reason.split("\n")[0]}`);
    return withPrepare({
      ...shared,
      chainFor: () => [],
      findModel: () => undefined,
      pickerChoices: async () => [],
      auxiliary: () => undefined,
      visionModel: () => undefined,
      warmUp: async () => {},
    }, savedApprovals, log);
  }

  const models = resolveModelSet(loaded, model.model);
  for (const resolved of [models.main, ...models.fallbacks, ...models.choices]) registerSecretValue(resolved.apiKey, `the API key of ${resolved.id}`);
  for (const problem of models.problems) log.warn(`model entry skipped: ${problem}`);
  log.info("models", { main: models.main.id, apiMode: models.main.apiMode, fallbacks: models.fallbacks.map((m) => m.id), choices: models.choices.length });

  const providers = new Map<string, ModelProvider>();
  const providerFor = (resolved: ResolvedModel) => {
    // A model with thinking switched off is another provider instance (its options differ).
    const key = thinks(resolved) ? resolved.id : `${resolved.id}\0plain`;
    let provider = providers.get(key);
    if (!provider) providers.set(key, (provider = createProvider(resolved)));
    return provider;
  };
  const toChoice = (resolved: ResolvedModel): ModelChoice => ({
    id: resolved.id,
    provider: providerFor(resolved),
    maxRetries: resolved.maxRetries,
    contextWindow: resolved.contextWindow,
    maxOutputTokens: resolved.maxOutputTokens,
    ...(resolved.price ? { price: resolved.price } : {}),
    vision: resolved.vision,
    imageLimits: imageLimitsFor(resolved.apiMode),
  });
  let discovered: ResolvedModel[] = [];
  let discovery: Promise<ResolvedModel[]> | undefined;
  const pickerChoices = () =>
    (discovery ??= discoverChoices(loaded, models).then((found) => {
      discovered = found;
      return [...models.choices, ...found];
    }));
  const findModel = (modelId: string) => [...models.choices, ...discovered].find((choice) => choice.id === modelId);

  return withPrepare({
    ...shared,
    models,
    findModel,
    pickerChoices,
    auxiliary: () => toChoice(models.auxiliary),
    visionModel: () => (models.vision ? toChoice(models.vision) : undefined),
    chainFor: (modelId, options) => {
      const first = (modelId && findModel(modelId)) || models.main;
      const chain = [first, ...models.fallbacks.filter((fallback) => fallback.id !== first.id)];
      return (options?.thinking === false ? chain.map(withoutThinking) : chain).map(toChoice);
    },
    warmUp: async (modelId) => {
      await providerFor((modelId && findModel(modelId)) || models.main).warmUp?.();
    },
  }, savedApprovals, log);
}

/** The runtime from its parts, its warm-up run at most once (both kinds of runtime share it). */
function withPrepare(parts: Omit<AgentRuntime, "prepare" | "approvals">, approvals: () => ApprovalRules, log: Logger): AgentRuntime {
  let prepared: Promise<void> | undefined;
  // `approvals` is a getter (it exists once the tools loaded): defined on the object, since a spread would read it now.
  const runtime = { ...parts, prepare: (cwd: string, quiet?: () => Promise<void>) => (prepared ??= prepareFirstSession(runtime, cwd, log, quiet)) } as AgentRuntime;
  Object.defineProperty(runtime, "approvals", { get: approvals, enumerable: true });
  return runtime;
}


/**
 * What the first session/new waits for, then what its first prompt needs, one step per turn of
 * the event loop so a request that arrives meanwhile is not held up. Each step leaves its result
 * where the session's own code finds it, so a session/new that comes first just does that step
 * itself (or awaits the same promise):
 *   - the model picker's choices: GET /models on the main endpoint (the runtime's one promise,
 *     which session/new awaits; it also loads Node's fetch);
 *   - the skill catalog: every SKILL.md parsed once (library.ts keeps them by text; the bundled and
 *     $HERMES_HOME skills are the same for every folder);
 *   - the built-in tools' modules (loadTools), then their JSON schemas, built from zod once per
 *     process (tools/registry.ts keeps them);
 *   - the main model's provider SDK (imported once; session/new asks for it again, a no-op then).
 */
async function prepareFirstSession(runtime: AgentRuntime, cwd: string, log: Logger, quiet: () => Promise<void> = async () => {}): Promise<void> {
  /** Lets a request that arrived meanwhile run before the next step, and finish first if it is waited on. */
  const idle = async () => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    await quiet();
  };
  try {
    void runtime.pickerChoices().catch((error: unknown) => log.warn("listing the endpoint's models failed", { error }));
    await idle();
    const { catalogFor } = await import("../skills/settings");
    const { loaded } = runtime;
    catalogFor({ cwd, home: loaded.home, config: loaded.config, env: loaded.env });
    await idle();
    await runtime.loadTools();
    await idle();
    for (const tool of runtime.tools.list()) {
      toolJsonSchema(tool);
      await idle();
    }
    await runtime.warmUp(); // the main model's SDK (its provider keeps the one promise)
  } catch (error) {
    log.warn("preparing for the first session failed", { error });
  }
}

/** Nothing configured: use a local Ollama / LM Studio if one is running. */
async function localModel(loaded: LoadedConfig, unresolved: ModelResolution, log: Logger): Promise<ModelResolution> {
  const found = await probeLocalServers();
  if (!found) {
    const reason = !unresolved.ok ? unresolved.reason : "";
    return { ok: false, reason: `${reason}\n\n(No local Ollama on 127.0.0.1:11434 or LM Studio on 127.0.0.1:1234 answered either.)` };
  }
  log.info(`no model configured; using ${found.provider} at ${found.baseUrl} with ${found.models[0]}`);
  return resolveEntry(ModelEntrySchema.parse({ provider: found.provider, name: found.models[0] }), loaded, { where: "model" });
}

/** Models the main endpoint lists, as choices on that endpoint (OpenAI-compatible APIs only). */
async function discoverChoices(loaded: LoadedConfig, models: ModelSet): Promise<ResolvedModel[]> {
  const main = models.main;
  if (main.apiMode === "anthropic_messages") return [];
  const names = await discoverModels({ baseUrl: main.baseUrl, apiKey: main.apiKey }, path.join(loaded.home, "cache"));
  const known = new Set(models.choices.map((choice) => choice.id));
  return names.flatMap((name) => {
    const resolved = resolveEntry(ModelEntrySchema.parse({ name }), loaded, { inheritFrom: main, where: "models" });
    return resolved.ok && !known.has(resolved.model.id) ? [resolved.model] : [];
  });
}

/** The model as called with extended thinking switched off for the session. */
function withoutThinking(model: ResolvedModel): ResolvedModel {
  const { thinkingBudget: _budget, reasoningEffort: _effort, ...plain } = model;
  return plain;
}
