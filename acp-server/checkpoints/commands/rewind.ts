// /rewind N: the conversation up to before turn N, in a new session (files unchanged).
import { defineCommand } from "../../runtime/slash-command";
import { runCheckpointCommand } from "./restore-commands";

export const rewindCommand = defineCommand({
  name: "rewind",
  description: "Rewind the conversation to before turn N in a new session (files unchanged; this session stays)",
  hint: "turn number",
  run: (context) => runCheckpointCommand("rewind", context),
});
