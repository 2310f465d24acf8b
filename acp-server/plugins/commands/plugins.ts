// /plugins: the installed plugins, whether each is on, what each adds to a session, and why a
// broken one is skipped. Installing and removing are done with `hermes plugins` in a terminal,
// where the confirmation shows every command a plugin would run.
import { defineCommand } from "../../runtime/slash-command";

export const pluginsCommand = defineCommand({
  name: "plugins",
  description: "Installed plugins and what each adds (install with `hermes plugins install`)",
  async run({ runtime, session, output }) {
    const [{ installedPlugins }, { describePluginContents }] = await Promise.all([import("../plugin-store"), import("../plugin-install")]);
    let plugins;
    try {
      plugins = installedPlugins(runtime.loaded.home);
    } catch (error) {
      output.say(`The plugins could not be read: ${(error as Error).message}`);
      return;
    }
    const wanted = await projectSection(runtime.loaded.home, session.agent.cwd);
    if (plugins.length === 0) {
      output.say(`No plugins installed. In a terminal, \`hermes plugins install PATH|GIT-URL|NPM-NAME\` adds one (Claude Code's plugin layout works unchanged).${wanted}`);
      return;
    }
    const lines = [`**Plugins** (${plugins.filter((entry) => entry.state.enabled).length} of ${plugins.length} enabled; changes apply to new sessions)`];
    for (const entry of plugins) {
      const state = entry.state.enabled ? "enabled" : "disabled";
      if (!entry.read.ok) {
        lines.push(`- **${entry.name}** (${state}) — skipped: ${entry.read.problem}`);
        continue;
      }
      const plugin = entry.read.plugin;
      lines.push(`- **${entry.name}**${plugin.version ? ` v${plugin.version}` : ""} (${state}, from \`${entry.state.source}\`)${plugin.description ? `: ${plugin.description}` : ""}`);
      for (const line of describePluginContents(plugin)) lines.push(`  - ${line}`);
    }
    lines.push("", "`hermes plugins enable|disable|remove NAME` in a terminal changes them.");
    output.say(lines.join("\n") + wanted);
  },
});

/** The plugins this project wants and which of them are not on, with the command for each (empty without a .hermes/plugins file). */
async function projectSection(home: string, cwd: string): Promise<string> {
  const { projectPlugins, fixFor } = await import("../project-plugins");
  try {
    const project = projectPlugins(home, cwd);
    if (!project) return "";
    const lines = project.wanted.map((plugin) => `- **${plugin.name}**: ${plugin.status === "enabled" ? "enabled" : `${plugin.status === "missing" ? "not installed" : "disabled"}: \`${fixFor(plugin)}\``}`);
    const missing = project.wanted.some((plugin) => plugin.status === "missing");
    return `\n\n**Wanted by this project** (${project.file}):\n${lines.join("\n")}${missing ? "\n\n`hermes plugins install --project` installs the missing ones; it shows what each adds and asks first." : ""}`;
  } catch (error) {
    return `\n\nThis project's plugin list could not be used: ${(error as Error).message}`;
  }
}
