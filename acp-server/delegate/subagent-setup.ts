// What an in-process subagent starts with: its tools (requested toolsets ∩ the parent's, never
// the ones that reach beyond the task) and a focused system prompt holding the goal and the
// context only: not the parent's persona, memory or conversation.
import type { AgentSession } from "../agent/session";
import type { DelegateTask } from "../tools/context";
import type { ToolDefinition } from "../tools/registry";

/** Tools a subagent never gets: more delegation (unless max_depth allows), memory, asking the user, writing skills. */
export const BLOCKED_TOOLS = ["delegate_task", "memory", "clarify", "skill_manage"];

export interface ChildTools {
  filter: (tool: ToolDefinition) => boolean;
  /** The toolsets it got, sorted. */
  toolsets: string[];
}

/** The parent's toolsets (of the tools it may use). */
export function parentToolsets(parent: AgentSession): Set<string> {
  return new Set(parent.tools.list().map((tool) => tool.toolset));
}

/** requested ∩ parent's (all of the parent's when none are requested), minus the blocked tools. */
export function childTools(parent: AgentSession, requested: string[] | undefined, canDelegate: boolean): ChildTools {
  const available = parentToolsets(parent);
  const toolsets = new Set(requested ? requested.filter((name) => available.has(name)) : available);
  const blocked = new Set(canDelegate ? BLOCKED_TOOLS.filter((name) => name !== "delegate_task") : BLOCKED_TOOLS);
  // Narrowing the parent's tools keeps the parent's own restriction too.
  const filter = (tool: ToolDefinition) => toolsets.has(tool.toolset) && !blocked.has(tool.name);
  return { filter, toolsets: [...toolsets].sort() };
}

export interface SubagentPromptFacts {
  task: DelegateTask;
  taskId: string;
  cwd: string;
  toolNames: string[];
  maxIterations: number;
  /** A named agent's own instructions, which lead the prompt. */
  profile?: { name: string; role: string };
}

/** The subagent's whole system prompt. */
export function subagentPrompt(facts: SubagentPromptFacts): string {
  const sections = [
    ...(facts.profile ? [`# You are the agent "${facts.profile.name}"\n${facts.profile.role.trim()}`] : []),
    `You are a subagent of Hermes, a coding agent. You were given one task by the parent agent, which will read your final answer; the user watches your steps. Work on this task only, with the tools you have, and stop when it is done.`,
    `# Goal\n${facts.task.goal.trim()}`,
    ...(facts.task.context?.trim() ? [`# Context\n${facts.task.context.trim()}`] : []),
    `# How to finish\nWhen the goal is reached (or cannot be), reply without calling tools: a concise report of what you did, what you found, the files you changed and anything left undone. That reply is all the parent sees. You have at most ${facts.maxIterations} model calls with tools.`,
    `# Environment\nTask id: ${facts.taskId}\nWorking directory: ${facts.cwd}\nTools: ${facts.toolNames.length ? facts.toolNames.join(", ") : "none"}\nDate: ${new Date().toISOString().slice(0, 10)}`,
  ];
  return sections.join("\n\n");
}

/** The first user message: the goal again, so every provider has a user turn to answer. */
export function subagentRequest(task: DelegateTask): string {
  return task.context?.trim() ? `${task.goal.trim()}\n\nContext:\n${task.context.trim()}` : task.goal.trim();
}
