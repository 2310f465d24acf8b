// Helpers for the delegation tests: a scripted model that routes each request by who sent it
// (the parent session or a subagent, told apart by the system prompt), the delegate_task card
// as the client saw it, and process checks for "no orphans".
import type * as acp from "@agentclientprotocol/sdk";
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import type { AcpPeer } from "./acp-client";
import { sessionUpdates } from "./acp-harness";
import type { RecordedRequest } from "./scripted-http";
import { startScriptedModel, type ScriptedModel, type ScriptedReply } from "./scripted-model";

export function systemText(request: RecordedRequest): string {
  const first = request.body?.messages?.[0];
  return first?.role === "system" ? String(first.content) : "";
}

/** Requests from subagents (their system prompt says so). */
export function isSubagent(request: RecordedRequest): boolean {
  return systemText(request).startsWith("You are a subagent of Hermes");
}

/** The subagent's goal, from its system prompt. */
export function goalOf(request: RecordedRequest): string {
  return /# Goal\n([^\n]*)/.exec(systemText(request))?.[1] ?? "";
}

export function toolNames(request: RecordedRequest): string[] {
  return (request.body?.tools ?? []).map((tool: any) => tool.function?.name ?? tool.name).sort();
}

export function toolMessages(request: RecordedRequest): string[] {
  return (request.body?.messages ?? []).filter((m: any) => m.role === "tool").map((m: any) => String(m.content));
}

/** Model calls of one conversation so far (assistant messages in the request + 1). */
export function callNumber(request: RecordedRequest): number {
  return (request.body?.messages ?? []).filter((m: any) => m.role === "assistant").length + 1;
}

/**
 * A scripted model whose every reply is computed by `route` (no queue): parallel subagents
 * may ask in any order.
 */
export async function startRoutedModel(route: (request: RecordedRequest) => ScriptedReply | Promise<ScriptedReply>): Promise<ScriptedModel> {
  return startScriptedModel({ fallback: { handler: route } });
}

export interface DelegateCard {
  id: string;
  title: string;
  status?: string;
  /** Text of every content update, in order. */
  progressTexts: string[];
  rawOutput?: any;
}

/** The delegate_task call of a session as the client saw it. */
export function delegateCard(harness: Pick<AcpPeer, "updates">, sessionId: string): DelegateCard {
  const updates = sessionUpdates(harness, sessionId);
  const start = updates.find((u): u is Extract<acp.SessionUpdate, { sessionUpdate: "tool_call" }> => u.sessionUpdate === "tool_call" && (u.rawInput as any)?.tasks !== undefined);
  if (!start) throw new Error("no delegate_task tool call");
  const card: DelegateCard = { id: start.toolCallId, title: start.title, progressTexts: [] };
  for (const update of updates) {
    if (update.sessionUpdate !== "tool_call_update" || update.toolCallId !== start.toolCallId) continue;
    if (update.status) card.status = update.status;
    if (update.content) card.progressTexts.push(update.content.map((c: any) => (c.type === "content" && c.content.type === "text" ? c.content.text : "")).join("\n"));
    if (update.rawOutput !== undefined) card.rawOutput = update.rawOutput;
  }
  return card;
}

/** True while the process exists and is not a zombie. */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** For process states (a pid gone, children left): no event reaches us for those, so this polls. */
export async function waitUntil(condition: () => boolean, timeoutMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await sleep(25);
  }
  return condition();
}

/** Direct children of a process (from /proc). */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** A process and all its descendants. */
export function processTree(pid: number): number[] {
  const all = [pid];
  for (let i = 0; i < all.length; i++) all.push(...childPids(all[i]));
  return all;
}
