// /plugins: the installed plugins, whether each is on, what each adds to a session, and why a
// broken one is skipped. Installing and removing are done with `hermes plugins` in a terminal,
// where the confirmation shows every command a plugin would run.
import { defineCommand } from "../../runtime/slash-command";

export const pluginsCommand = defineCommand({
  name: "plugins",
  description: "Installed plugins and what each adds (install with `hermes plugins install`)",
  async run({ runtime, output }) {
    const [{ installedPlugins }, { describePluginContents }] = await Promise.all([import("../plugin-store"), import("../plugin-install")]);
    let plugins;
    try {
      plugins = installedPlugins(runtime.loaded.home);
    } catch (error) {
      output.say(`The plugins could not be read: ${(error as Error).message}`);
      return;
    }
    if (plugins.length === 0) {
      output.say("No plugins installed. In a terminal, `hermes plugins install PATH|GIT-URL|NPM-NAME` adds one (Claude Code's plugin layout works unchanged).");
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
    output.say(lines.join("\n"));
  },
});
