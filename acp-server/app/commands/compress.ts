// /compress: compress the conversation's context now (earlier turns become a summary).
import { compressSession } from "../../agent/compress";
import { prepareSystemPrompt, toolSpecs } from "../../agent/loop";
import { defineCommand } from "../../runtime/slash-command";
import { sessionHooks } from "../../runtime/session-hooks";
import { compressionSettings } from "../../runtime/turn-settings";

export const compressCommand = defineCommand({
  name: "compress",
  description: "Compress the conversation's context now (earlier turns become a summary)",
  async run({ session, runtime, client, output, signal, log }) {
    const agent = session.agent;
    const models = runtime.chainFor(agent.modelId);
    if (models.length === 0) return output.say("No model is configured: there is nothing to write the summary with.");
    const settings = compressionSettings(runtime.loaded.config);
    // PreCompact hooks hear of it first (they cannot stop it).
    await (await sessionHooks(runtime, session, client, log))?.preCompact("manual", "");
    const systemPrompt = await prepareSystemPrompt(agent);
    const context = { session: agent, models, summarizer: runtime.auxiliary(), observer: output, signal, log, systemPrompt, tools: toolSpecs(agent), settings };
    const outcome = await compressSession(context, "command");
    if (outcome.kind === "cancelled") return output.say("Compression cancelled; the context is unchanged.");
    if (outcome.kind === "nothing") return output.say(`Nothing to compress: all ${outcome.messages} messages are in the protected first exchange and the last ${settings.protectLast} messages.`);
    const { report } = outcome;
    const how = report.status === "completed" ? "summarized" : report.status === "degraded" ? "dropped without a summary" : "left unchanged";
    return output.say(`Compressed the context: ${report.messagesBefore} → ${report.messagesAfter} messages, about ${report.tokensBefore.toLocaleString("en")} → ${report.tokensAfter.toLocaleString("en")} tokens (earlier turns ${how}; this session's history keeps them all).`);
  },
});
