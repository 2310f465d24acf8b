import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ToolError } from "../../acp-server/tools/registry";
import { summarize, todoTool } from "../../acp-server/tools/todo";
import { recordingContext, tempDir } from "../support/tool-context";

describe("todo", () => {
  test("replaces the session's list, publishes the plan and summarizes", async () => {
    const ctx = recordingContext({ cwd: await tempDir() });
    ctx.state.todos = [{ id: "old", content: "Old step", status: "pending" }];
    const todos = [
      { id: "1", content: "Read the code", status: "completed" },
      { id: "2", content: "Fix the bug", status: "in_progress" },
      { id: "3", content: "Run tests", status: "pending" },
      { id: "4", content: "Write docs", status: "cancelled" },
    ];
    const result = await todoTool.handler(todoTool.schema.parse({ todos }), ctx);
    assert.deepEqual(ctx.state.todos, todos);
    assert.deepEqual(ctx.plans, [todos]);
    const output = result.output as { todos: unknown; summary: Record<string, number> };
    assert.deepEqual(output.todos, todos);
    assert.deepEqual(output.summary, { total: 4, pending: 1, in_progress: 1, completed: 1, cancelled: 1 });
    assert.deepEqual(result.content, [{ type: "text", text: "[x] Read the code\n[~] Fix the bug\n[ ] Run tests\n[-] Write docs" }]);
  });

  test("an empty list clears the plan", async () => {
    const ctx = recordingContext({ cwd: await tempDir() });
    ctx.state.todos = [{ id: "1", content: "x", status: "pending" }];
    const result = await todoTool.handler(todoTool.schema.parse({ todos: [] }), ctx);
    assert.deepEqual(ctx.state.todos, []);
    assert.deepEqual(ctx.plans, [[]]);
    assert.equal((result.output as { summary: { total: number } }).summary.total, 0);
  });

  test("duplicate ids are rejected and leave the state alone", async () => {
    const ctx = recordingContext({ cwd: await tempDir() });
    const args = todoTool.schema.parse({
      todos: [
        { id: "1", content: "a", status: "pending" },
        { id: "1", content: "b", status: "pending" },
      ],
    });
    await assert.rejects(todoTool.handler(args, ctx), (error: unknown) => error instanceof ToolError && /Duplicate todo id "1"/.test(error.message));
    assert.deepEqual(ctx.state.todos, []);
    assert.deepEqual(ctx.plans, []);
  });

  test("schema rejects unknown statuses, empty content and a missing list", () => {
    assert.equal(todoTool.schema.safeParse({}).success, false);
    assert.equal(todoTool.schema.safeParse({ todos: [{ id: "1", content: "a", status: "done" }] }).success, false);
    assert.equal(todoTool.schema.safeParse({ todos: [{ id: "1", content: "", status: "pending" }] }).success, false);
    assert.equal(todoTool.schema.safeParse({ todos: [{ id: "1", content: "a" }] }).success, false);
  });

  test("metadata and summarize", () => {
    assert.equal(todoTool.title({ todos: [] }, "/"), "Update plan");
    assert.equal(todoTool.kind, "think");
    assert.equal(todoTool.toolset, "planning");
    assert.deepEqual(summarize([{ id: "a", content: "x", status: "completed" }]), {
      total: 1,
      pending: 0,
      in_progress: 0,
      completed: 1,
      cancelled: 0,
    });
  });
});
