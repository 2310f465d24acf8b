// /reset: a fresh context in the same session (the history stays in the journal).
import { defineCommand } from "../../runtime/slash-command";

export const resetCommand = defineCommand({
  name: "reset",
  description: "Start a fresh context in this session",
  run({ session, output }) {
    const dropped = session.agent.history.length;
    session.agent.reset();
    output.say(`Started a fresh context: ${dropped} earlier messages are no longer sent to the model (they stay in this session's history).`);
  },
});
