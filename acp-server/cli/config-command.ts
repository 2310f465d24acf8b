// `hermes config get KEY | set KEY VALUE | path`: dotted keys into config.yaml. `set` edits the
// file in place (comments kept) and is refused when the result would not pass the schema, so a
// typo never leaves a config Hermes ignores.
import { yaml } from "../util/yaml";
import { editConfigFile } from "../config/config-edit";
import { describeConfigError } from "../config/config-error";
import { describeIssues, loadConfig } from "../config/load";
import { ConfigSchema } from "../config/schema";
import { checkFlags, parseArgs, printJson, runCommand, UsageError } from "./cli-output";

export async function runConfig(args: string[]): Promise<number> {
  return runCommand("config", async () => {
    const parsed = parseArgs(args);
    checkFlags(parsed, ["json"]);
    const json = parsed.flags.has("json");
    const [verb, key, ...valueWords] = parsed.words;
    const loaded = loadConfig();
    switch (verb) {
      case "path":
        if (json) printJson({ config: loaded.configPath, home: loaded.home, exists: loaded.configFound });
        else process.stdout.write(`${loaded.configPath}\n`);
        return 0;
      case "get": {
        if (loaded.error) {
          process.stderr.write(describeConfigError(loaded));
          return 2;
        }
        const value = key ? lookup(loaded.config, key.split(".")) : loaded.config;
        if (value === undefined) {
          process.stderr.write(`hermes config: no setting ${key}\n`);
          return 1;
        }
        const shown = redactKeys(value, key ?? "");
        if (json || typeof shown !== "string") printJson(shown);
        else process.stdout.write(`${shown}\n`);
        return 0;
      }
      case "set": {
        if (!key || valueWords.length === 0) throw new UsageError("set needs a key and a value, e.g. hermes config set agent.max_turns 60");
        if (/(^|\.)api_key$/.test(key)) throw new UsageError("keys go in $HERMES_HOME/.env: run hermes setup (config.yaml is not for secrets)");
        // Unknown top-level sections are tolerated when read (a newer Hermes may add some), never written.
        const known = Object.keys(ConfigSchema.shape);
        if (!known.includes(key.split(".")[0] ?? "")) throw new UsageError(`${key.split(".")[0]} is not a Hermes setting; the sections are: ${known.join(", ")}`);
        const text = valueWords.join(" ");
        const value = parseValue(text);
        const path = key.split(".");
        let problem: string | undefined;
        const failed = editConfigFile(loaded.configPath, (document) => {
          document.setIn(path, value);
          const check = ConfigSchema.safeParse(yaml().parse(document.toString()) ?? {});
          if (!check.success) {
            problem = describeIssues(loaded.configPath, check.error.issues).join("\n");
            return problem;
          }
          return undefined;
        });
        if (failed) {
          process.stderr.write(`hermes config: not saved: ${failed}\n`);
          return 1;
        }
        if (json) printJson({ key, value });
        else process.stderr.write(`Set ${key} = ${JSON.stringify(value)} in ${loaded.configPath}\n`);
        return 0;
      }
      default:
        throw new UsageError(verb ? `unknown config command "${verb}" (get, set, path)` : "config needs get, set or path");
    }
  });
}

function lookup(value: unknown, path: string[]): unknown {
  let current = value;
  for (const part of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** YAML scalars as YAML reads them: numbers, booleans, null, [lists]; anything else is a string. */
function parseValue(text: string): unknown {
  try {
    return yaml().parse(text);
  } catch {
    // expected: text that is not YAML is set as the plain string the user typed
    return text;
  }
}

/** api_key values are shown as set / not set, never printed. */
function redactKeys(value: unknown, key: string): unknown {
  if (/(^|\.)api_key$/.test(key)) return value ? "(set)" : value;
  if (Array.isArray(value)) return value.map((item) => redactKeys(item, ""));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === "api_key" ? (v ? "(set)" : v) : redactKeys(v, "")]));
  }
  return value;
}

