// The fix for a config.yaml / .env that cannot be used, said the same way by `hermes chat`,
// `hermes acp --check` and the editor's answer: which file, which keys, what to do next.

/**
 * What configErrorFix reads of a LoadedConfig. Spelled out here rather than imported: load.ts
 * uses YAML_PARSER_MISSING below, and the two modules must not import each other.
 */
export interface ConfigLoadOutcome {
  configPath: string;
  /** Set when config.yaml or .env could not be used (LoadedConfig.error). */
  error?: string;
}

/** How load.ts says the installation, not config.yaml, is at fault (no YAML parser to read it). */
export const YAML_PARSER_MISSING = "not read: this installation of Hermes could not load its YAML parser";

/** One sentence naming the keys (or the YAML syntax) to fix, or undefined when the config is fine. */
export function configErrorFix(loaded: ConfigLoadOutcome): string | undefined {
  if (!loaded.error) return undefined;
  const prefix = `${loaded.configPath}: `;
  const keys = new Set<string>();
  let yamlSyntax = false;
  let parserMissing = false;
  for (const line of loaded.error.split("\n")) {
    if (!line.startsWith(prefix)) continue;
    const rest = line.slice(prefix.length);
    if (rest.startsWith(YAML_PARSER_MISSING)) parserMissing = true;
    else if (rest.startsWith("invalid YAML")) yamlSyntax = true;
    else if (!rest.startsWith("cannot be read")) keys.add(rest.split(": ")[0] ?? rest);
  }
  // The file may well be fine: only a complete installation can tell.
  if (parserMissing) return "Reinstall Hermes (the npm package or the editor extension), then run `hermes acp --check` to confirm.";
  const what = yamlSyntax
    ? `Fix the YAML syntax in ${loaded.configPath} at the line shown above`
    : keys.size > 0
      ? `Fix ${[...keys].join(", ")} in ${loaded.configPath} as described above`
      : "Fix the file named above";
  return `${what}, then run \`hermes acp --check\` to confirm. (Hermes ignores ${loaded.configPath} until it is valid.)`;
}

/** The whole message every command prints for a config.yaml / .env it cannot use: the problem, then the fix. */
export function describeConfigError(loaded: ConfigLoadOutcome): string {
  return `hermes: the configuration cannot be used:\n${loaded.error ?? ""}\n\n${configErrorFix(loaded) ?? `Fix ${loaded.configPath}.`}\n`;
}
