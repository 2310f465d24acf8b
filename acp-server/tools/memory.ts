// memory: durable notes kept across sessions in $HERMES_HOME/memories/. The files are
// read once when a session starts (a frozen snapshot), so changes show up next session.
import * as z from "zod";
import { hermesHome } from "../config/paths";
import { MemoryError, MemoryStore } from "../memory/memory-store";
import { defineTool, ToolError } from "./registry";

const schema = z.object({
  action: z.enum(["add", "replace", "remove"]).describe("add, replace or remove one entry."),
  target: z.enum(["memory", "user"]).describe("memory (your notes) or user (facts about the user)."),
  content: z.string().optional().describe("add / replace: the entry, one short fact."),
  old_text: z.string().optional().describe("replace / remove: a snippet found in exactly one entry."),
});

const NOTE = "Saved. Memory is loaded at the start of each session, so this takes effect in the next session.";

export const memoryTool = defineTool({
  name: "memory",
  toolset: "memory",
  kind: "other",
  readOnly: false,
  description:
    "Save durable notes loaded at the start of every future session. " +
    'target "memory": environments and projects, tool quirks, workarounds, lessons learned; "user": the user\'s name, role, preferences and style. ' +
    "One short, self-contained fact per entry; no secrets, task state or things easily re-derived. " +
    "Space is small (memory 2,200 chars, user 1,375): when full, replace or remove entries. " +
    "Your system prompt's memory is a frozen snapshot from this session's start; changes apply from the next session.",
  schema,
  title: (args) => `${args.action === "add" ? "Remember" : args.action === "replace" ? "Update memory" : "Forget"} (${args.target})`,
  handler: async (args) => {
    const store = new MemoryStore(hermesHome());
    const needContent = args.action === "add" || args.action === "replace";
    const needOld = args.action === "replace" || args.action === "remove";
    if (needContent && !args.content?.trim()) throw new ToolError(`"content" is required for ${args.action}: the text of the entry to save.`);
    if (needOld && !args.old_text?.trim()) throw new ToolError(`"old_text" is required for ${args.action}: a snippet that occurs in exactly one existing entry.`);
    try {
      const change =
        args.action === "add"
          ? store.add(args.target, args.content!)
          : args.action === "replace"
            ? store.replace(args.target, args.old_text!, args.content!)
            : store.remove(args.target, args.old_text!);
      return {
        output: { ok: true, target: change.target, entries: change.entries, chars: change.chars, limit: change.limit, note: NOTE },
        content: [{ type: "text", text: `${args.action} ${args.target}: ${change.entries.length} entries, ${change.chars}/${change.limit} chars` }],
      };
    } catch (error) {
      if (error instanceof MemoryError) throw new ToolError(error.message);
      throw error;
    }
  },
});
