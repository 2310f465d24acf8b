// /help: every command with its argument and what it does.
import { defineCommand } from "../../runtime/slash-command";
import { BUILT_IN_COMMANDS } from "./all-commands";

export const helpCommand = defineCommand({
  name: "help",
  description: "List the commands",
  run: ({ output }) => output.say(BUILT_IN_COMMANDS.map((c) => `- \`/${c.name}${c.hint ? ` <${c.hint}>` : ""}\`: ${c.description}`).join("\n")),
});
