// delegate_task's engine: for one tool call, runs each task on an in-process subagent or an
// external ACP agent, at most delegation.max_concurrent_children at a time (the rest queue),
// streams their progress into the call's card and returns one bounded result per task.
import { stat } from "node:fs/promises";
import path from "node:path";
import type { DelegationCall } from "../agent/turn-io";
import type { DelegationConfig } from "../config/schema";
import { insideWorkspace } from "../security/sensitive-paths";
import type { DelegateResult, DelegateTask, Delegation, ShellRunner, TaskWorktreeResult } from "../tools/context";
import { ToolError } from "../tools/registry";
import type { Logger } from "../util/log";
import type { RunExternalAgent } from "./external-agent";
import { agentCatalog, HERMES_AGENT, type AgentEntry } from "./agents";
import { parentAsker } from "./permissions";
import { boundSummary, ProgressBoard, type TaskProgress } from "./progress";
import { runSubagent, type SubagentSettings } from "./subagent";
import type { McpServerSpec } from "../mcp/server-spec";
import type { PluginAgent } from "../plugins/plugin-agents";

export interface DelegationDeps {
  config: DelegationConfig;
  subagents: Omit<SubagentSettings, "maxIterations" | "maxDepth" | "log">;
  /** The parent session's MCP servers (passed on to external agents). */
  mcpServers: () => McpServerSpec[];
  /**
   * Runs external agents' terminal/* commands (local processes, own process groups), given the
   * task's folder: the session's sandbox confines their writes to it.
   */
  shell: (taskFolder: string) => ShellRunner;
  version: string;
  log: Logger;
  /** Runs a task in an external agent (the front end's: ACP children, acp/child-agent/). */
  externalAgents: RunExternalAgent;
  /** Where to look for agents' commands (tests); defaults to this process's PATH. */
  env?: NodeJS.ProcessEnv;
  /** Agents the enabled plugins bring (run as in-process subagents with their own instructions). */
  pluginAgents?: () => PluginAgent[];
  /** Where tasks with `isolation: "worktree"` get their worktrees (absent: such tasks fail, saying why). */
  worktreesRoot?: string;
}

/** The TurnHost's delegation factory: one Delegation per delegate_task call. */
export function createDelegation(deps: DelegationDeps): (call: DelegationCall) => Delegation {
  return (call) => ({ run: (tasks) => runTasks(deps, call, tasks) });
}

type TaskOutcome = Omit<DelegateResult, "task_index" | "agent" | "duration_ms" | "summary"> & { answer: string };

async function runTasks(deps: DelegationDeps, call: DelegationCall, tasks: DelegateTask[]) {
  const { config, log } = deps;
  if (call.session.depth >= config.max_depth) {
    throw new ToolError(`Delegation is limited to ${config.max_depth} level${config.max_depth === 1 ? "" : "s"} (delegation.max_depth): a subagent cannot delegate further.`);
  }
  const board = new ProgressBoard(call.progress);
  const labels = taskLabels(tasks);
  const slots = tasks.map((task, index) => {
    const label = labels[index] ?? "subagent"; // taskLabels gives one per task
    return { task, label, progress: board.add(label, task.goal) };
  });
  const ask = parentAsker(call, config.auto_approve, () => board.flush());
  const catalog = agentCatalog(config.acp_agents, deps.env);
  board.flush();
  // Worktree tasks' diffs go into the workspace one at a time: each is checked against what the one before left.
  let applying: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const next = applying.then(work);
    applying = next.catch(() => undefined); // expected: the caller hears of its own failure; the next apply still runs
    return next;
  };

  const runOne = async ({ task, label, progress }: (typeof slots)[number], index: number): Promise<DelegateResult> => {
    const started = Date.now();
    const agent = task.agent ?? HERMES_AGENT;
    let outcome: TaskOutcome;
    let worktree: TaskWorktreeResult | undefined;
    if (call.signal.aborted) outcome = { status: "cancelled", answer: "", tool_calls: 0, error: "cancelled before it started" };
    else {
      try {
        if (task.isolation === "worktree") {
          const own = await isolatedRun(deps, call, index, (roots) => runTask(deps, call, task, index, label, progress, catalog, ask, roots), inTurn, task.goal);
          outcome = own.outcome;
          worktree = own.worktree;
        } else outcome = await runTask(deps, call, task, index, label, progress, catalog, ask);
      } catch (error) {
        log.warn("delegated task failed", { index, agent, error });
        outcome = { status: "failed", answer: "", tool_calls: 0, error: (error as Error)?.message ?? String(error) };
      }
    }
    const { answer, ...rest } = outcome;
    const result: DelegateResult = { task_index: index, agent, ...rest, summary: boundSummary(answer, config.max_summary_chars), duration_ms: Date.now() - started, ...(worktree ? { worktree } : {}) };
    if (result.error === undefined) delete result.error;
    progress.finished(result);
    return result;
  };

  try {
    const results = await pool(slots, config.max_concurrent_children, runOne);
    return { results, content: board.content() };
  } finally {
    board.close();
  }
}

async function runTask(
  deps: DelegationDeps,
  call: DelegationCall,
  task: DelegateTask,
  index: number,
  label: string,
  progress: TaskProgress,
  catalog: AgentEntry[],
  ask: ReturnType<typeof parentAsker>,
  /** The task's own workspace (its worktree); default the session's. */
  roots: readonly string[] = call.session.workspaceRoots,
): Promise<TaskOutcome> {
  const cwd = await taskFolder(roots, task.cwd);
  const askAs = (child: Parameters<typeof ask>[1], question: Parameters<typeof ask>[2], signal: AbortSignal) => ask(label, child, question, signal);
  const agent = task.agent ?? HERMES_AGENT;
  const pluginAgent = agent === HERMES_AGENT ? undefined : deps.pluginAgents?.().find((candidate) => candidate.name === agent);
  if (agent === HERMES_AGENT || pluginAgent) {
    const taskId = `${call.session.id}/${call.call.id}/task-${index + 1}`;
    // A plugin's agent: its instructions lead the subagent's prompt; its tools narrow the toolsets (a task's own list wins).
    const profile = pluginAgent ? { role: pluginAgent.instructions, name: pluginAgent.name } : undefined;
    const toolsets = task.toolsets ?? pluginAgent?.toolsets;
    const outcome = await runSubagent(
      { task: { ...task, ...(toolsets ? { toolsets } : {}) }, taskId, cwd, label, parent: call, progress, ask: askAs, signal: call.signal, ...(profile ? { profile } : {}) },
      { ...deps.subagents, maxIterations: deps.config.max_iterations, maxDepth: deps.config.max_depth, log: deps.log },
    );
    return { status: outcome.status, answer: outcome.answer, tool_calls: outcome.toolCalls, ...(outcome.error ? { error: outcome.error } : {}) };
  }

  const entry = catalog.find((candidate) => candidate.name === agent);
  const names = [HERMES_AGENT, ...(deps.pluginAgents?.() ?? []).map((candidate) => candidate.name), ...catalog.filter((candidate) => candidate.resolved).map((candidate) => candidate.name)].join(", ");
  if (!entry) return failed(`Unknown agent "${agent}". Available: ${names} (external agents come from delegation.acp_agents; /agents lists them).`);
  if (!entry.resolved) return failed(`Agent "${agent}" is not installed: \`${entry.command}\` was not found. Available: ${names}.`);
  const outcome = await deps.externalAgents({
    agent: { ...entry, resolved: entry.resolved },
    label,
    prompt: task.context?.trim() ? `${task.goal.trim()}\n\nContext:\n${task.context.trim()}` : task.goal.trim(),
    cwd,
    mcpServers: deps.mcpServers(),
    files: call.host.files,
    shell: deps.shell(cwd),
    ask: askAs,
    progress,
    idleTimeoutMs: deps.config.idle_timeout * 1000,
    signal: call.signal,
    version: deps.version,
    log: deps.log,
  });
  // What the child agent spent counts in this session's usage (/usage), like a subagent's.
  if (outcome.usage) call.session.recordChildUsage(outcome.usage.usage, undefined, outcome.usage.costUsd);
  return { status: outcome.status, answer: outcome.answer, tool_calls: outcome.toolCalls, ...(outcome.error ? { error: outcome.error } : {}) };
}

/**
 * A task in a worktree of its own: made before it runs, its diff brought back after (in turn with
 * the call's other tasks). Only a task that completed is applied: a failed or cancelled one's
 * half-done edits stay in its kept worktree, named in the result.
 */
async function isolatedRun(
  deps: DelegationDeps,
  call: DelegationCall,
  index: number,
  run: (roots: readonly string[]) => Promise<TaskOutcome>,
  inTurn: <T>(work: () => Promise<T>) => Promise<T>,
  goal: string,
): Promise<{ outcome: TaskOutcome; worktree?: TaskWorktreeResult }> {
  if (!deps.worktreesRoot) return { outcome: failed('isolation "worktree" is not available here') };
  const { openTaskWorktree, bringBackTask } = await import("./task-worktree");
  const made = await openTaskWorktree({ parentCwd: call.session.workspaceRoots[0] ?? process.cwd(), parentId: call.session.id, root: deps.worktreesRoot, n: index + 1 });
  const outcome = await run([made.cwd]);
  if (outcome.status !== "completed") {
    return { outcome, worktree: { branch: made.branch, files: [], outcome: "kept", reason: `not applied: the task ended ${outcome.status}`, path: made.path } };
  }
  const worktree = await inTurn(() => bringBackTask(made, `delegate_task: ${goal.split("\n")[0]?.slice(0, 72) ?? "task"}`));
  return { outcome, worktree };
}

function failed(error: string): TaskOutcome {
  return { status: "failed", answer: "", tool_calls: 0, error };
}

/** The task's folder: the session's, or one inside one of the workspace's roots (the cwd first). */
async function taskFolder(roots: readonly string[], requested: string | undefined): Promise<string> {
  const sessionCwd = roots[0] ?? process.cwd();
  if (!requested) return sessionCwd;
  const folder = path.resolve(sessionCwd, requested);
  if (!insideWorkspace(roots, folder)) throw new Error(`cwd ${requested} is outside the session's workspace (${roots.join(", ")})`);
  const info = await stat(folder).catch(() => undefined); // expected: a folder that cannot be stat'ed is reported just below as "not a folder"
  if (!info?.isDirectory()) throw new Error(`cwd ${requested} is not a folder`);
  return folder;
}

/** "subagent", "claude"; numbered when an agent has several tasks ("subagent 2"). */
export function taskLabels(tasks: DelegateTask[]): string[] {
  const names = tasks.map((task) => (!task.agent || task.agent === HERMES_AGENT ? "subagent" : task.agent));
  const totals = new Map<string, number>();
  for (const name of names) totals.set(name, (totals.get(name) ?? 0) + 1);
  const seen = new Map<string, number>();
  return names.map((name) => {
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return (totals.get(name) ?? 0) > 1 ? `${name} ${n}` : name;
  });
}

/** Runs `work` over `items` with at most `limit` at once; results in item order. */
export async function pool<T, R>(items: T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  // One iterator shared by the workers: each next() hands out the next item exactly once.
  const queue = items.entries();
  const worker = async () => {
    for (const [index, item] of queue) results[index] = await work(item, index);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
