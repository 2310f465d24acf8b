// /help: every command with its argument and what it does.
import { defineCommand } from "../../runtime/slash-command";

export const helpCommand = defineCommand({
  name: "help",
  description: "List the commands",
  run: ({ output, commands }) => output.say(commands.map((c) => `- \`/${c.name}${c.hint ? ` <${c.hint}>` : ""}\`: ${c.description}`).join("\n")),
});
