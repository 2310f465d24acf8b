// /checkpoints: this session's checkpoints (turn, time, prompt, files changed).
import { defineCommand } from "../../runtime/slash-command";
import { runCheckpointCommand } from "./restore-commands";

export const checkpointsCommand = defineCommand({
  name: "checkpoints",
  description: "This session's checkpoints: turn, time, prompt, files changed",
  run: (context) => runCheckpointCommand("checkpoints", context),
});
