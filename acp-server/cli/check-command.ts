// `hermes acp --check`: print the resolved configuration and probe the model endpoint (one
// GET /models, no tokens spent; `--offline` skips it); exit 1 with the reason if unusable.
import { configErrorFix } from "../config/config-error";
import { loadConfig } from "../config/load";
import { probeEndpoint } from "../config/probe-endpoint";
import { probeLocalServers } from "../config/probe-local";
import { resolveModel, resolveModelSet, type ResolvedModel } from "../config/resolve-model";
import { VERSION } from "../version";

export interface CheckOptions {
  /** Skip the request to the endpoint (no network). */
  offline?: boolean;
}

export async function runCheck(
  options: CheckOptions = {},
  out: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Promise<number> {
  const loaded = loadConfig();
  const model = resolveModel(loaded);
  out(`hermes ${VERSION}`);
  out(`home:        ${loaded.home}`);
  out(`config:      ${loaded.configPath}${loaded.configFound ? "" : " (not found, using defaults)"}`);
  // A broken file is the cause: its fix, not the "no model is configured" that follows from ignoring it.
  const problems: string[] = loaded.error ? [`${loaded.error}\n\n${configErrorFix(loaded)}`] : [];
  if (model.ok) {
    const set = resolveModelSet(loaded, model.model);
    describe(out, model.model);
    if (set.fallbacks.length) out(`fallbacks:   ${set.fallbacks.map((m) => `${m.id} (${m.apiMode})`).join(", ")}`);
    if (set.choices.length > 1) out(`picker:      ${set.choices.map((m) => m.id).join(", ")}`);
    if (set.auxiliary.id !== model.model.id) out(`auxiliary:   ${set.auxiliary.id}`);
    out(`vision:      ${visionLine(model.model, set.vision)}`);
    for (const problem of set.problems) out(`warning:     ${problem}`);
    if (options.offline) out("endpoint:    not probed (--offline)");
    else {
      const probe = await probeEndpoint(model.model);
      if (probe.ok) {
        out(`endpoint:    ${probe.url} ${probe.detail}`);
        if (probe.models && probe.models.length > 0 && !probe.models.includes(model.model.name)) {
          out(`warning:     model "${model.model.name}" is not among the models ${probe.url} lists`);
        }
      } else {
        out(`endpoint:    ${probe.url} FAILED: ${probe.detail}`);
        const fix = probe.keyRejected
          ? model.model.apiKeyHint
          : `Check model.base_url in ${loaded.configPath} (or HERMES_BASE_URL) and that the server is running; \`hermes acp --check --offline\` skips this probe.`;
        problems.push(`${model.model.provider} endpoint ${probe.url}: ${probe.detail}.\n${fix}`);
      }
    }
  } else {
    const local = loaded.error ? undefined : await probeLocalServers();
    if (local) out(`model:       none configured; a local ${local.provider} at ${local.baseUrl} will be used (${local.models[0]})`);
    else if (!(loaded.error && /^No model is configured/.test(model.reason))) problems.push(model.reason);
  }
  out(`max_turns:   ${loaded.config.agent.max_turns}`);
  out(`mode:        ${loaded.config.agent.default_mode}`);
  if (problems.length > 0) {
    process.stderr.write(`\nhermes: configuration is not usable:\n${problems.join("\n\n")}\n`);
    return 1;
  }
  out("status:      ok");
  return 0;
}

/** Whether the main model sees, and who looks at images for it when it does not. */
function visionLine(main: ResolvedModel, vision: ResolvedModel | undefined): string {
  if (main.vision) return vision && vision.id !== main.id ? `yes (vision_analyze asks ${vision.id})` : "yes";
  if (vision) return `no: images are described by ${vision.id}`;
  return "no: images reach the model as a note (set auxiliary_vision, or vision: true if the model sees)";
}

function describe(out: (line: string) => void, m: ResolvedModel): void {
  out(`provider:    ${m.provider}`);
  out(`model:       ${m.name}`);
  out(`base_url:    ${m.baseUrl}`);
  out(`api_mode:    ${m.apiMode}`);
  out(`api_key:     ${m.apiKey ? `set (from ${m.apiKeySource})` : "none"}`);
  const price = m.price ? `, $${m.price.input} in / $${m.price.output} out per M tokens` : "";
  out(`limits:      ${m.contextWindow} context, ${m.maxOutputTokens} max output${price}`);
}
