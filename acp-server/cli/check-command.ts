// `hermes acp --check`: print the resolved configuration; exit 1 with the reason if unusable.
import { loadConfig } from "../config/load";
import { resolveModel } from "../config/resolve-model";
import { VERSION } from "../version";

export function runCheck(out: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): number {
  const loaded = loadConfig();
  const model = resolveModel(loaded);
  out(`hermes ${VERSION}`);
  out(`home:        ${loaded.home}`);
  out(`config:      ${loaded.configPath}${loaded.configFound ? "" : " (not found, using defaults)"}`);
  if (model.ok) {
    const m = model.model;
    out(`provider:    ${m.provider}`);
    out(`model:       ${m.name}`);
    out(`base_url:    ${m.baseUrl}`);
    out(`api_mode:    ${m.apiMode}`);
    out(`api_key:     ${m.apiKey ? `set (from ${m.apiKeySource})` : "none"}`);
  }
  out(`max_turns:   ${loaded.config.agent.max_turns}`);
  out(`mode:        ${loaded.config.agent.default_mode}`);
  const problems = [loaded.error, model.ok ? undefined : model.reason].filter(Boolean);
  if (problems.length > 0) {
    process.stderr.write(`\nhermes: configuration is not usable:\n${problems.join("\n\n")}\n`);
    return 1;
  }
  out("status:      ok");
  return 0;
}
