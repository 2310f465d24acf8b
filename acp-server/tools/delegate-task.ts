// The `delegate_task` tool: hands tasks to focused subagents of Hermes (in this process) or
// to external coding agents configured in delegation.acp_agents (over ACP). The work lives in
// acp-server/delegate/; this file is the model-facing definition.
import * as z from "zod";
import { defineTool, ToolError } from "./registry";

const taskSchema = z.object({
  goal: z.string().min(1).describe("What the child must achieve, stated completely: it sees nothing of this conversation."),
  context: z.string().optional().describe("Facts the child needs: file paths, constraints, what was already tried."),
  toolsets: z
    .array(z.string().min(1))
    .optional()
    .describe('A subagent\'s toolsets, e.g. ["file", "terminal"] (default: yours but delegation, memory, skill writing).'),
  agent: z
    .string()
    .min(1)
    .optional()
    .describe('"hermes" (default, a subagent here) or an agent from /agents (a plugin\'s, or an external one such as "claude").'),
  cwd: z.string().optional().describe("Folder to work in, inside the session's (default: it)."),
  isolation: z
    .enum(["workspace", "worktree"])
    .optional()
    .describe('"worktree": the child edits in a git worktree of its own; its diff is then applied to your workspace, or its conflict reported (use it for parallel tasks that edit). Default "workspace".'),
});

const schema = z.object({
  tasks: z.array(taskSchema).min(1).max(20).describe("Tasks; independent ones run in parallel."),
  wait: z.literal(true).optional().describe("Wait for every task to finish (the only mode)."),
});

export const delegateTaskTool = defineTool({
  name: "delegate_task",
  toolset: "delegation",
  description:
    "Delegate self-contained tasks to child agents that work in parallel and report back. Each child starts fresh: " +
    "give it a complete goal and the context it needs. Use it to split large work (independent files, separate " +
    "investigations) or to hand a task to another coding agent the user configured. Returns one result per task: " +
    "status, the child's summary, duration and tool calls (and, for a task in a worktree, what of its diff was applied).",
  schema,
  kind: "other",
  readOnly: false,
  maxResultChars: 60_000,
  title: (args) => (args.tasks.length === 1 && args.tasks[0] ? `Delegate: ${oneLine(args.tasks[0].goal)}` : `Delegate ${args.tasks.length} tasks`),
  handler: async (args, ctx) => {
    if (!ctx.delegation) throw new ToolError("Delegation is not available here (a subagent cannot delegate further: delegation.max_depth).");
    const { results, content } = await ctx.delegation.run(args.tasks);
    const failed = results.filter((result) => result.status === "failed" || result.status === "cancelled").length;
    return { output: { results }, content, isError: failed === results.length };
  },
});

function oneLine(text: string): string {
  const line = (text.split("\n")[0] ?? "").trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
