// /steer <text>: answered the moment it arrives, even mid-turn. The text goes to the running turn
// (AgentSession.steer): the loop adds it before its next model call, at the next tool boundary,
// without cancelling anything. With no turn running it is not lost: it runs as an ordinary prompt.
import { defineCommand } from "../../runtime/slash-command";
import { invalidParams } from "../../util/agent-error";

export const steerCommand = defineCommand({
  name: "steer",
  description: "Guide the running turn without stopping it: the note reaches the model at its next step",
  hint: "guidance",
  immediate: true,
  run({ argument, session }) {
    if (!argument) throw invalidParams("/steer needs the guidance to send, e.g. /steer use the existing helper instead", { sessionId: session.id });
    return session.agent.steer(argument) ? { steer: "pending" } : { runAsPrompt: argument };
  },
});
