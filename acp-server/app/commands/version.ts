// /version: which Hermes answers.
import { defineCommand } from "../../runtime/slash-command";
import { VERSION } from "../../version";

export const versionCommand = defineCommand({
  name: "version",
  description: "Show Hermes's version",
  run: ({ output }) => output.say(`Hermes ${VERSION}`),
});
