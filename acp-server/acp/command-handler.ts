// What each slash command does. Every command answers with visible text.
import { MemoryStore } from "../memory/memory-store";
import { VERSION } from "../version";
import type { AcpSession } from "./acp-session";
import type { AgentRuntime } from "./agent-runtime";
import { COMMANDS, type Command } from "./commands";
import { setModel } from "./session-settings";
import type { AcpTurnObserver } from "./turn-observer";
import { textChunk } from "./updates";
import type { Logger } from "../util/log";

export async function runCommand(command: Command, session: AcpSession, runtime: AgentRuntime, observer: AcpTurnObserver, log: Logger): Promise<void> {
  const say = (text: string) => observer.send(textChunk(text));
  const agent = session.agent;
  switch (command.name) {
    case "help":
      return say(COMMANDS.map((c) => `- \`/${c.name}${c.input ? ` <${c.input.hint}>` : ""}\`: ${c.description}`).join("\n"));
    case "context": {
      const window = currentWindow(runtime, agent.modelId);
      if (!agent.contextTokens || !window) return say("No model call yet in this context: nothing to measure.");
      const share = (agent.contextTokens / window) * 100;
      return say(`Context: ${agent.contextTokens.toLocaleString("en")} of ${window.toLocaleString("en")} tokens (${share.toFixed(1)}%), ${agent.history.length} messages.`);
    }
    case "memory": {
      const memory = new MemoryStore(runtime.loaded.home).snapshot();
      return say(`**Memory (the agent's notes)**\n${memory.memory || "(empty)"}\n\n**User profile**\n${memory.user || "(empty)"}\n\nChanges made during a session take effect in the next one.`);
    }
    case "reset": {
      const dropped = agent.history.length;
      agent.reset();
      session.recorder?.reset();
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
      session.recorder?.settings({ modelId: wanted.id });
      return say(`Switched to \`${wanted.id}\`.`);
    }
    case "usage": {
      const cost = agent.costUsd !== undefined ? `, cost $${agent.costUsd.toFixed(4)}` : "";
      return say(`This session: ${agent.tokensIn.toLocaleString("en")} input and ${agent.tokensOut.toLocaleString("en")} output tokens over ${agent.modelCalls} model calls${cost}.`);
    }
    case "title":
      if (!command.argument) return say(session.title ? `This session is titled "${session.title}".` : "This session has no title yet. Use /title <text> to set one.");
      observer.setTitle(command.argument, "user");
      return say(`Title set to "${session.title}".`);
    case "version":
      return say(`Hermes ${VERSION}`);
  }
}

function currentWindow(runtime: AgentRuntime, modelId: string | undefined): number | undefined {
  return ((modelId && runtime.findModel(modelId)) || runtime.models?.main)?.contextWindow;
}
