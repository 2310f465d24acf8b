// A plugin's `commands/*.md` as slash commands, written for Claude Code and used unchanged: the
// file's body is the prompt, with `$ARGUMENTS` (everything typed after the command), `$1`, `$2`…
// (its words) and `${CLAUDE_PLUGIN_ROOT}` filled in. Frontmatter: `description` and
// `argument-hint` are what the editor's menu shows. A command is offered under its own name, or
// as `<plugin>:<name>` when that name is taken (a built-in command, a skill, another plugin's
// command); the long form always works.
//
// What Hermes does differently, on purpose: a "!`command`" line is not run while the prompt is
// built (that would be a command nobody approved, outside the guard and the sandbox); it becomes
// an instruction to run it with the terminal tool, which asks like any other command.
// `allowed-tools` and `model` are read and shown, not obeyed: a plugin does not widen what runs
// without asking.
import { readMarkdownFile } from "./markdown-file";
import type { PluginContents } from "./plugin-manifest";

export interface PluginCommand {
  /** The name it is offered under (`name`, or `plugin:name` when taken). */
  name: string;
  plugin: PluginContents;
  file: string;
  description: string;
  hint?: string;
}

const MAX_DESCRIPTION = 200;

/** Every plugin command, named so that none shadows `taken` (built-in commands and skills) or another. */
export function pluginCommands(plugins: readonly PluginContents[], taken: ReadonlySet<string>): PluginCommand[] {
  const counts = new Map<string, number>();
  for (const plugin of plugins) for (const command of plugin.commands) counts.set(command.name, (counts.get(command.name) ?? 0) + 1);
  const commands: PluginCommand[] = [];
  for (const plugin of plugins) {
    for (const command of plugin.commands) {
      const short = !taken.has(command.name) && counts.get(command.name) === 1 && !command.name.includes(":");
      const front = frontmatterOf(command.file);
      const declared = front.data.description;
      const description = flat(typeof declared === "string" ? declared : (firstLine(front.body) ?? ""));
      const hint = front.data["argument-hint"];
      commands.push({
        name: short ? command.name : `${plugin.name}:${command.name}`,
        plugin,
        file: command.file,
        description: `${plugin.name}: ${description || "plugin command"}`,
        ...(typeof hint === "string" && hint.trim() ? { hint: hint.trim() } : {}),
      });
    }
  }
  return commands;
}

/**
 * The prompt a `/<command> arguments` text becomes, or undefined when `text` invokes no plugin
 * command. `<plugin>:<command>` finds a command whatever name it is offered under.
 */
export function expandPluginCommand(text: string, commands: readonly PluginCommand[]): string | undefined {
  const match = /^\/([a-z0-9][\w:-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match?.[1]) return undefined;
  const name = match[1];
  const command = commands.find((candidate) => candidate.name === name) ?? commands.find((candidate) => `${candidate.plugin.name}:${baseName(candidate)}` === name);
  if (!command) return undefined;
  const argumentsText = (match[2] ?? "").trim();
  const { body } = frontmatterOf(command.file);
  return renderCommandBody(body, argumentsText, command.plugin.root);
}

/** The body with its placeholders filled in; the typed arguments are appended when the body names none. */
export function renderCommandBody(body: string, argumentsText: string, pluginRoot: string): string {
  const words = argumentsText ? argumentsText.split(/\s+/) : [];
  let usedArguments = false;
  let text = body
    .replace(/\$\{(?:CLAUDE|HERMES)_PLUGIN_ROOT\}/g, pluginRoot)
    .replace(/\$ARGUMENTS\b/g, () => {
      usedArguments = true;
      return argumentsText;
    })
    .replace(/\$(\d+)\b/g, (_whole, index: string) => {
      usedArguments = true;
      return words[Number(index) - 1] ?? "";
    })
    .replace(/!`([^`\n]+)`/g, (_whole, command: string) => `(run \`${command}\` with the terminal tool and use its output here)`);
  if (!usedArguments && argumentsText) text = `${text.trimEnd()}\n\nARGUMENTS: ${argumentsText}`;
  return text.trim();
}

function baseName(command: PluginCommand): string {
  const prefix = `${command.plugin.name}:`;
  return command.name.startsWith(prefix) ? command.name.slice(prefix.length) : command.name;
}

/** The command file's frontmatter and body; a file removed since the plugin was read offers a command that says so when run. */
function frontmatterOf(file: string): { data: Record<string, unknown>; body: string } {
  return readMarkdownFile(file) ?? { data: {}, body: `(the plugin's command file ${file} could not be read)` };
}

function firstLine(text: string): string | undefined {
  return text.split("\n").find((line) => line.trim() && !line.startsWith("#"))?.trim();
}

function flat(text: string): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > MAX_DESCRIPTION ? `${one.slice(0, MAX_DESCRIPTION - 1)}…` : one;
}
