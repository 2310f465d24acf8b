// /usage: the session's one account of tokens and cost (its subagents' and child agents' calls included).
import { defineCommand } from "../../runtime/slash-command";

export const usageCommand = defineCommand({
  name: "usage",
  description: "Tokens and cost of this session",
  run({ session, output }) {
    const { usage } = session.agent;
    const cost = usage.costUsd !== undefined ? `, cost $${usage.costUsd.toFixed(4)}` : "";
    output.say(`This session: ${usage.inputTokens.toLocaleString("en")} input and ${usage.outputTokens.toLocaleString("en")} output tokens over ${usage.modelCalls} model calls${cost}.`);
  },
});
