// todo: the session's plan. Each call replaces the whole list, which is published to the
// editor as the ACP plan, so the user sees progress as the model works.
import * as z from "zod";
import type { TodoItem, TodoStatus } from "./context";
import { defineTool, ToolError } from "./registry";

const STATUSES = ["pending", "in_progress", "completed", "cancelled"] as const satisfies readonly TodoStatus[];

const schema = z.object({
  todos: z
    .array(
      z.object({
        id: z.string().min(1).describe('Stable identifier, e.g. "1" or "tests".'),
        content: z.string().min(1).describe("What the step is, in a short imperative sentence."),
        status: z.enum(STATUSES).describe("pending, in_progress (one at a time), completed or cancelled."),
      }),
    )
    .describe("The complete list; it replaces the previous one. Pass [] to clear the plan."),
});

const MARKS: Record<TodoStatus, string> = { pending: "[ ]", in_progress: "[~]", completed: "[x]", cancelled: "[-]" };

export function summarize(todos: readonly TodoItem[]): Record<TodoStatus | "total", number> {
  const summary = { total: todos.length, pending: 0, in_progress: 0, completed: 0, cancelled: 0 };
  for (const todo of todos) summary[todo.status]++;
  return summary;
}

export const todoTool = defineTool({
  name: "todo",
  toolset: "planning",
  kind: "think",
  readOnly: false,
  description:
    "Maintain a plan for multi-step work. Send the complete list each time (it replaces the previous one); the user sees it in the editor. Mark a step in_progress before starting it and completed as soon as it is done; keep one step in_progress at a time. Skip it for trivial one-step tasks.",
  schema,
  title: () => "Update plan",
  handler: async (args, ctx) => {
    const seen = new Set<string>();
    for (const todo of args.todos) {
      if (seen.has(todo.id)) throw new ToolError(`Duplicate todo id ${JSON.stringify(todo.id)}: ids must be unique.`);
      seen.add(todo.id);
    }
    const todos: TodoItem[] = args.todos.map(({ id, content, status }) => ({ id, content, status }));
    ctx.state.todos = todos;
    ctx.publishPlan(todos.map((todo) => ({ ...todo })));
    const text = todos.map((todo) => `${MARKS[todo.status]} ${todo.content}`).join("\n");
    return { output: { todos, summary: summarize(todos) }, content: [{ type: "text", text: text || "Plan cleared" }] };
  },
});
