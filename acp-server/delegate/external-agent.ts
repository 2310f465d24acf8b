// What delegation needs of an external agent (Claude Code, Gemini CLI, Codex…): run one task in a
// folder and say how it went. The ACP edge implements it (acp/child-agent/: Hermes as an ACP
// client of the child, serving its fs/* and terminal/* requests with the files and shell given
// here); delegation hands it down, so nothing below the edge speaks ACP to a child.
import type { PermissionAnswer, ToolCallView } from "../agent/turn-io";
import type { McpServerSpec } from "../mcp/server-spec";
import type { TokenUsage } from "../providers/types";
import type { FileAccess, PermissionAsk, ShellRunner } from "../tools/context";
import type { Logger } from "../util/log";
import type { AgentEntry } from "./agents";
import type { TaskProgress } from "./progress";

export interface ExternalAgentTask {
  agent: AgentEntry & { resolved: string };
  label: string;
  prompt: string;
  /** The task's folder: the child's session cwd, and the only place its file requests may touch. */
  cwd: string;
  /** The parent session's client-named MCP servers: the child gets them too. */
  mcpServers: McpServerSpec[];
  /** What serves the child's file requests (confined to `cwd`) and its commands (the session's sandbox). */
  files: FileAccess;
  shell: ShellRunner;
  /** Asks the user, through the parent's card, on the child's behalf. */
  ask: (call: Omit<ToolCallView, "id" | "requestId" | "name">, ask: PermissionAsk, signal: AbortSignal) => Promise<PermissionAnswer>;
  progress: TaskProgress;
  idleTimeoutMs: number;
  signal: AbortSignal;
  version: string;
  log: Logger;
}

export interface ExternalAgentOutcome {
  status: "completed" | "failed" | "cancelled";
  answer: string;
  toolCalls: number;
  error?: string;
  /** What the child's turn used, when it said so. */
  usage?: { usage: TokenUsage; costUsd?: number };
}

export type RunExternalAgent = (task: ExternalAgentTask) => Promise<ExternalAgentOutcome>;
