// /rollback N [--conversation]: the files go back to before turn N (asked first); the flag also
// rewinds the chat into a new session.
import { defineCommand } from "../../runtime/slash-command";
import { runCheckpointCommand } from "./restore-commands";

export const rollbackCommand = defineCommand({
  name: "rollback",
  description: "Return the files to before turn N (shows the diff and asks first); --conversation also rewinds the chat",
  hint: "turn number [--conversation]",
  run: (context) => runCheckpointCommand("rollback", context),
});
