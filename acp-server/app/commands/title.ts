// /title: show or set the session's title (a user's title is never replaced by a generated one).
import { defineCommand } from "../../runtime/slash-command";

export const titleCommand = defineCommand({
  name: "title",
  description: "Set this session's title",
  hint: "new title",
  run({ argument, session, output }) {
    const agent = session.agent;
    if (!argument) return output.say(agent.title ? `This session is titled "${agent.title}".` : "This session has no title yet. Use /title <text> to set one.");
    output.setTitle(argument, "user");
    return output.say(`Title set to "${agent.title}".`);
  },
});
