// What the parent's delegate_task card shows while children work: per task, its steps as
// "claude: Edit src/x.ts ✓" lines, the tail of what it is saying, its plan, and how it ended.
// Rendering is pure; ProgressBoard only batches the updates (at most one per interval).
import type { DelegateResult, DisplayContent, TodoItem } from "../tools/context";

export type StepStatus = "pending" | "running" | "completed" | "failed";

export interface TaskView {
  label: string;
  goal: string;
  state: "queued" | "running" | DelegateResult["status"];
  steps: { id: string; title: string; status: StepStatus }[];
  /** The tail of the message the child is writing now. */
  text: string;
  plan: TodoItem[];
  notes: string[];
  error?: string;
}

/** Steps kept per task in the card (the newest); the result has the full count. */
export const MAX_STEPS = 12;
const TEXT_TAIL = 300;
const MARK: Record<StepStatus, string> = { pending: "…", running: "…", completed: "✓", failed: "✗" };
const PLAN_MARK: Record<TodoItem["status"], string> = { pending: "[ ]", in_progress: "[~]", completed: "[x]", cancelled: "[-]" };

export function renderTasks(tasks: TaskView[]): DisplayContent[] {
  const blocks = tasks.map((task, index) => {
    const lines = [`**${task.label}** (task ${index + 1}, ${task.state}): ${firstLine(task.goal)}`];
    for (const plan of task.plan) lines.push(`  ${PLAN_MARK[plan.status]} ${plan.content}`);
    const hidden = task.steps.length - MAX_STEPS;
    if (hidden > 0) lines.push(`${task.label}: … ${hidden} earlier steps`);
    for (const step of task.steps.slice(-MAX_STEPS)) lines.push(`${task.label}: ${step.title} ${MARK[step.status]}`);
    for (const note of task.notes.slice(-3)) lines.push(`${task.label}: ⚠ ${note}`);
    const text = task.text.trim();
    if (text) lines.push(`> ${tail(text, TEXT_TAIL).replace(/\n+/g, " ")}`);
    if (task.error) lines.push(`${task.label}: ${task.error}`);
    return lines.join("\n");
  });
  return [{ type: "text", text: blocks.join("\n\n") }];
}

/** One task's live view, updated by the child's events. */
export class TaskProgress {
  readonly view: TaskView;

  constructor(
    label: string,
    goal: string,
    private readonly changed: () => void,
  ) {
    this.view = { label, goal, state: "queued", steps: [], text: "", plan: [], notes: [] };
  }

  started(): void {
    this.view.state = "running";
    this.changed();
  }

  text(delta: string): void {
    this.view.text = tail(this.view.text + delta, TEXT_TAIL * 2);
    this.changed();
  }

  step(id: string, title: string, status: StepStatus = "pending"): void {
    const existing = this.view.steps.find((step) => step.id === id);
    if (existing) {
      if (title) existing.title = title;
      existing.status = status;
    } else {
      this.view.steps.push({ id, title: title || "tool call", status });
      this.view.text = "";
    }
    this.changed();
  }

  stepStatus(id: string, status: StepStatus | undefined, title?: string): void {
    const existing = this.view.steps.find((step) => step.id === id);
    if (!existing) return this.step(id, title ?? "", status ?? "pending");
    if (status) existing.status = status;
    if (title) existing.title = title;
    this.changed();
  }

  plan(todos: TodoItem[]): void {
    this.view.plan = todos;
    this.changed();
  }

  note(text: string): void {
    this.view.notes.push(text);
    this.changed();
  }

  finished(result: DelegateResult): void {
    this.view.state = result.status;
    if (result.error) this.view.error = result.error;
    this.changed();
  }
}

/** All tasks of one delegate_task call; sends the card at most once per interval. */
export class ProgressBoard {
  readonly tasks: TaskProgress[] = [];
  private timer?: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly send: (content: DisplayContent[]) => void,
    private readonly intervalMs = 100,
  ) {}

  add(label: string, goal: string): TaskProgress {
    const task = new TaskProgress(label, goal, () => this.schedule());
    this.tasks.push(task);
    return task;
  }

  content(): DisplayContent[] {
    return renderTasks(this.tasks.map((task) => task.view));
  }

  /** Sends what is pending now. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.closed) this.send(this.content());
  }

  /** No more updates (the tool call is finishing; its result carries the last content). */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.closed = true;
  }

  private schedule(): void {
    if (!this.closed) this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }
}

function firstLine(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}

function tail(text: string, chars: number): string {
  return text.length > chars ? `…${text.slice(-chars)}` : text;
}

/** A child's final answer as a summary of at most `chars` characters. */
export function boundSummary(text: string, chars: number): string {
  const trimmed = text.trim();
  if (trimmed.length <= chars) return trimmed;
  return `${trimmed.slice(0, chars)}\n[summary cut: ${trimmed.length - chars} more characters]`;
}
