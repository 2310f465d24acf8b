// /model: the choices, or a switch of the session's model for its next call.
import { defineCommand } from "../../runtime/slash-command";
import { setModel } from "../session-settings";

export const modelCommand = defineCommand({
  name: "model",
  description: "Show or switch the model",
  hint: "model id (empty: list)",
  async run({ argument, session, runtime, output, log }) {
    const agent = session.agent;
    const choices = await runtime.pickerChoices();
    if (!argument) {
      const current = agent.modelId ?? runtime.models?.main.id;
      return output.say(choices.length ? choices.map((m) => `- \`${m.id}\`${m.id === current ? " (current)" : ""}`).join("\n") : "No model is configured.");
    }
    const wanted = choices.find((m) => m.id === argument || m.name === argument);
    if (!wanted) return output.say(`Unknown model "${argument}". \`/model\` lists the choices.`);
    await setModel(runtime, agent, wanted.id, log);
    return output.say(`Switched to \`${wanted.id}\`.`);
  },
});
