// /hooks: the hooks this session runs, by event, with where each comes from (config.yaml, the
// project's file, a plugin) and whether the project's are trusted yet.
import { sessionHooks } from "../../runtime/session-hooks";
import { defineCommand } from "../../runtime/slash-command";
import { describeOrigin } from "../hook-sources";

export const hooksCommand = defineCommand({
  name: "hooks",
  description: "The hooks this session runs, and where each comes from",
  async run({ runtime, session, client, output, log }) {
    const hooks = await sessionHooks(runtime, session, client, log);
    const all = hooks?.all() ?? [];
    if (all.length === 0) {
      output.say("No hooks. Add them under `hooks:` in config.yaml (Claude Code's format), in the project's `.hermes/hooks.json`, or with a plugin; see docs/extending.md.");
      return;
    }
    const lines = ["**Hooks**"];
    for (const { spec, active } of all) {
      const state = active ? "" : " — not trusted yet: runs once you trust the project's hooks (asked when one would run)";
      lines.push(`- ${spec.event}${spec.matcher ? ` \`${spec.matcher}\`` : ""}: \`${spec.command}\` (${describeOrigin(spec.origin)}, ${spec.timeout} s)${state}`);
    }
    output.say(lines.join("\n"));
  },
});
