// What each slash command does. Every command answers with visible text.
import { compressSession, promptTokens, thresholdTokens } from "../agent/compress";
import { prepareSystemPrompt, toolSpecs } from "../agent/loop";
import type { ModelChoice } from "../agent/model-choice";
import { VERSION } from "../version";
import { describeServers } from "../mcp/bridge";
import { agentCatalog, describeAgents } from "../delegate/agents";
import type { AcpSession } from "./acp-session";
import type { AgentRuntime } from "../runtime/runtime";
import { COMMANDS, type Command } from "./commands";
import { setModel } from "./session-settings";
import { learnedCommand } from "./learned-commands";
import { memoryCommand } from "./memory-command";
import { reloadMcp } from "./mcp-session";
import { toolsCommand } from "./tools-command";
import { skillsCommand } from "./skills-command";
import { compressionSettings } from "../runtime/turn-settings";
import type { AcpTurnObserver } from "./turn-observer";
import { textChunk } from "./updates";
import type { Logger } from "../util/log";

export async function runCommand(
  command: Command,
  session: AcpSession,
  runtime: AgentRuntime,
  observer: AcpTurnObserver,
  log: Logger,
  signal: AbortSignal,
  /** /context's line on the OS sandbox (acp/command-shell.ts). */
  sandboxLine = "",
): Promise<void> {
  const say = (text: string) => observer.send(textChunk(text));
  const agent = session.agent;
  switch (command.name) {
    case "help":
      return say(COMMANDS.map((c) => `- \`/${c.name}${c.input ? ` <${c.input.hint}>` : ""}\`: ${c.description}`).join("\n"));
    case "context": {
      const model = runtime.chainFor(agent.modelId)[0];
      const notes = [sandboxLine, await checkpointsLine(runtime, agent.cwd)].filter(Boolean).join("\n\n");
      const sandbox = notes ? `\n\n${notes}` : "";
      if (!model || agent.history.length === 0) return say(`No model call yet in this context: nothing to measure.${sandbox}`);
      // A reloaded session has no measured call yet: its size is estimated.
      const tokens = agent.contextTokens ?? promptTokens(agent, await prepareSystemPrompt(agent), toolSpecs(agent));
      const window = model.contextWindow;
      const share = (tokens / window) * 100;
      const estimated = agent.contextTokens === undefined ? "about " : "";
      const used = `Context: ${estimated}${tokens.toLocaleString("en")} of ${window.toLocaleString("en")} tokens (${share.toFixed(1)}%), ${agent.history.length} messages.`;
      return say(`${used} ${await compressionDistance(session, runtime, model)}${sandbox}`);
    }
    case "compress": {
      const models = runtime.chainFor(agent.modelId);
      if (models.length === 0) return say("No model is configured: there is nothing to write the summary with.");
      const settings = compressionSettings(runtime.loaded.config);
      const systemPrompt = await prepareSystemPrompt(agent);
      const context = { session: agent, models, summarizer: runtime.auxiliary(), observer, signal, log, systemPrompt, tools: toolSpecs(agent), settings };
      const outcome = await compressSession(context, "command");
      if (outcome.kind === "cancelled") return say("Compression cancelled; the context is unchanged.");
      if (outcome.kind === "nothing") return say(`Nothing to compress: all ${outcome.messages} messages are in the protected first exchange and the last ${settings.protectLast} messages.`);
      const { report } = outcome;
      const how = report.status === "completed" ? "summarized" : report.status === "degraded" ? "dropped without a summary" : "left unchanged";
      return say(`Compressed the context: ${report.messagesBefore} → ${report.messagesAfter} messages, about ${report.tokensBefore.toLocaleString("en")} → ${report.tokensAfter.toLocaleString("en")} tokens (earlier turns ${how}; this session's history keeps them all).`);
    }
    case "memory":
      return say(memoryCommand(command.argument, runtime.loaded.home));
    case "learned":
      return say(learnedCommand(command.argument, runtime.loaded.home, agent.id));
    case "skills":
      return say(skillsCommand(command.argument, agent.cwd, runtime.loaded));
    case "reset": {
      const dropped = agent.history.length;
      agent.reset();
      return say(`Started a fresh context: ${dropped} earlier messages are no longer sent to the model (they stay in this session's history).`);
    }
    case "model": {
      const choices = await runtime.pickerChoices();
      if (!command.argument) {
        const current = agent.modelId ?? runtime.models?.main.id;
        return say(choices.length ? choices.map((m) => `- \`${m.id}\`${m.id === current ? " (current)" : ""}`).join("\n") : "No model is configured.");
      }
      const wanted = choices.find((m) => m.id === command.argument || m.name === command.argument);
      if (!wanted) return say(`Unknown model "${command.argument}". \`/model\` lists the choices.`);
      await setModel(runtime, agent, wanted.id, log);
      return say(`Switched to \`${wanted.id}\`.`);
    }
    case "usage": {
      // The session's one account: its subagents' and child agents' calls are in it.
      const { usage } = agent;
      const cost = usage.costUsd !== undefined ? `, cost $${usage.costUsd.toFixed(4)}` : "";
      return say(`This session: ${usage.inputTokens.toLocaleString("en")} input and ${usage.outputTokens.toLocaleString("en")} output tokens over ${usage.modelCalls} model calls${cost}.`);
    }
    case "title":
      if (!command.argument) return say(agent.title ? `This session is titled "${agent.title}".` : "This session has no title yet. Use /title <text> to set one.");
      observer.setTitle(command.argument, "user");
      return say(`Title set to "${agent.title}".`);
    case "version":
      return say(`Hermes ${VERSION}`);
    case "mcp":
      return say(describeServers(session.mcp?.states() ?? []));
    case "reload-mcp":
      return say(await reloadMcp(runtime, session, log));
    case "tools":
      return say(toolsCommand(agent, command.argument));
    case "agents":
      return say(describeAgents(agentCatalog(runtime.loaded.config.delegation.acp_agents)));
  }
}

/** /context's line on checkpoints: on, or why they are off (no git, turned off, too big). */
async function checkpointsLine(runtime: AgentRuntime, cwd: string): Promise<string> {
  const opened = await runtime.checkpoints.open(cwd);
  return opened.ok ? "Checkpoints: on (`/checkpoints`, `/undo`, `/rollback N`)." : `Checkpoints: off, ${opened.reason}.`;
}

/** How far the context is from automatic compression. */
async function compressionDistance(session: AcpSession, runtime: AgentRuntime, model: ModelChoice): Promise<string> {
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
