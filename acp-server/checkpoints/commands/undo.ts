// /undo: the files the last changing turn touched go back (the diff is shown and asked first).
import { defineCommand } from "../../runtime/slash-command";
import { runCheckpointCommand } from "./restore-commands";

export const undoCommand = defineCommand({
  name: "undo",
  description: "Revert the files the last changing turn touched (shows the diff and asks first)",
  run: (context) => runCheckpointCommand("undo", context),
});
