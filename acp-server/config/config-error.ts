// The fix for a config.yaml / .env that cannot be used, said the same way by `hermes chat`,
// `hermes acp --check` and the editor's answer: which file, which keys, what to do next.
import type { LoadedConfig } from "./load";

/** One sentence naming the keys (or the YAML syntax) to fix, or undefined when the config is fine. */
export function configErrorFix(loaded: LoadedConfig): string | undefined {
  if (!loaded.error) return undefined;
  const prefix = `${loaded.configPath}: `;
  const keys = new Set<string>();
  let yamlSyntax = false;
  for (const line of loaded.error.split("\n")) {
    if (!line.startsWith(prefix)) continue;
    const rest = line.slice(prefix.length);
    if (rest.startsWith("invalid YAML")) yamlSyntax = true;
    else if (!rest.startsWith("cannot be read")) keys.add(rest.split(": ")[0] ?? rest);
  }
  const what = yamlSyntax
    ? `Fix the YAML syntax in ${loaded.configPath} at the line shown above`
    : keys.size > 0
      ? `Fix ${[...keys].join(", ")} in ${loaded.configPath} as described above`
      : "Fix the file named above";
  return `${what}, then run \`hermes acp --check\` to confirm. (Hermes ignores ${loaded.configPath} until it is valid.)`;
}
