// /context: how much of the model's window the conversation uses, how far compression is, and
// where commands run (the OS sandbox) and whether checkpoints are on.
import { promptTokens, thresholdTokens } from "../../agent/compress";
import { prepareSystemPrompt, toolSpecs } from "../../agent/loop";
import type { ModelChoice } from "../../agent/model-choice";
import type { LiveSession } from "../../runtime/live-session";
import type { AgentRuntime } from "../../runtime/runtime";
import { defineCommand } from "../../runtime/slash-command";
import { compressionSettings } from "../../runtime/turn-settings";
import { describeCommandSandbox } from "../session-shell";

export const contextCommand = defineCommand({
  name: "context",
  description: "How much of the model's context window is in use, and how far compression is",
  async run({ session, runtime, client, output }) {
    const agent = session.agent;
    const model = runtime.chainFor(agent.modelId)[0];
    const worktree = session.worktree ? `Worktree: branch \`${session.worktree.branch}\` in ${session.worktree.path} (from ${session.worktree.repo}; /worktree shows what changed).` : "";
    const notes = [worktree, describeCommandSandbox(runtime, session, client), await checkpointsLine(runtime, agent.cwd), await pluginsLine(runtime)].filter(Boolean).join("\n\n");
    const sandbox = notes ? `\n\n${notes}` : "";
    if (!model || agent.history.length === 0) return output.say(`No model call yet in this context: nothing to measure.${sandbox}`);
    // A reloaded session has no measured call yet: its size is estimated.
    const tokens = agent.contextTokens ?? promptTokens(agent, await prepareSystemPrompt(agent), toolSpecs(agent));
    const window = model.contextWindow;
    const share = (tokens / window) * 100;
    const estimated = agent.contextTokens === undefined ? "about " : "";
    const used = `Context: ${estimated}${tokens.toLocaleString("en")} of ${window.toLocaleString("en")} tokens (${share.toFixed(1)}%), ${agent.history.length} messages.`;
    return output.say(`${used} ${await compressionDistance(session, runtime, model)}${sandbox}`);
  },
});

/** /context's line on checkpoints: on, or why they are off (no git, turned off, too big). */
async function checkpointsLine(runtime: AgentRuntime, cwd: string): Promise<string> {
  const opened = await runtime.checkpoints.open(cwd);
  return opened.ok ? "Checkpoints: on (`/checkpoints`, `/undo`, `/rollback N`)." : `Checkpoints: off, ${opened.reason}.`;
}

/** /context's line on plugins: which add what to this session (empty without plugins). */
async function pluginsLine(runtime: AgentRuntime): Promise<string> {
  const { activePlugins } = await import("../../plugins/plugin-store");
  const { plugins, problems } = activePlugins(runtime.loaded.home);
  if (plugins.length === 0 && problems.length === 0) return "";
  const parts = plugins.map((plugin) => {
    const pieces = [
      plugin.commands.length ? `${plugin.commands.length} command${plugin.commands.length === 1 ? "" : "s"}` : "",
      plugin.agents.length ? `${plugin.agents.length} agent${plugin.agents.length === 1 ? "" : "s"}` : "",
      plugin.skillDirs.length ? "skills" : "",
      plugin.hooks ? "hooks" : "",
      Object.keys(plugin.mcpServers).length || plugin.toolsModule ? "MCP tools" : "",
    ].filter(Boolean);
    return `\`${plugin.name}\` (${pieces.join(", ") || "nothing"})`;
  });
  const skipped = problems.length ? ` Skipped: ${problems.join("; ")}.` : "";
  return `Plugins: ${parts.join(", ") || "none enabled"} (\`/plugins\` for details).${skipped}`;
}

/** How far the context is from automatic compression. */
async function compressionDistance(session: LiveSession, runtime: AgentRuntime, model: ModelChoice): Promise<string> {
  const settings = compressionSettings(runtime.loaded.config);
  const at = thresholdTokens(settings, model);
  const percent = `${Math.round(settings.threshold * 100)}%`;
  if (!settings.enabled) return `Automatic compression is off (compression.enabled); /compress still works.`;
  const next = promptTokens(session.agent, await prepareSystemPrompt(session.agent), toolSpecs(session.agent));
  const left = at - next;
  return left > 0
    ? `Compression at ${at.toLocaleString("en")} tokens (${percent} of the window): ${left.toLocaleString("en")} tokens to go.`
    : `Compression at ${at.toLocaleString("en")} tokens (${percent} of the window): reached; the next prompt compresses first.`;
}
