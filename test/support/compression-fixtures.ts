// Histories, a recording observer and provider-validity checks for the compression tests.
import assert from "node:assert/strict";
import type { CompactionReport, TurnObserver } from "../../acp-server/agent/turn-io";
import type { ChatMessage } from "../../acp-server/providers/types";
import type { RecordedRequest } from "./scripted-http";

export const user = (text: string): ChatMessage => ({ role: "user", content: [{ type: "text", text }] });
export const assistant = (text: string, calls: { id: string; name?: string }[] = []): ChatMessage =>
  calls.length ? { role: "assistant", content: text, toolCalls: calls.map((c) => ({ id: c.id, name: c.name ?? "read_file", arguments: `{"path":"${c.id}.ts"}` })) } : { role: "assistant", content: text };
export const tool = (id: string, content: string, name = "read_file"): ChatMessage => ({ role: "tool", toolCallId: id, name, content });

/**
 * A long coding session: `turns` prompts, each answered after `toolsPerTurn` tool-using calls
 * (two parallel tool calls each, with long outputs).
 */
export function codingHistory(turns: number, toolsPerTurn = 2, outputChars = 1_200): ChatMessage[] {
  const history: ChatMessage[] = [];
  for (let t = 0; t < turns; t++) {
    history.push(user(`prompt ${t}: please fix bug #${t} in src/module-${t}.ts`));
    for (let c = 0; c < toolsPerTurn; c++) {
      const ids = [`t${t}c${c}a`, `t${t}c${c}b`];
      history.push(assistant(`checking step ${c} of turn ${t}`, ids.map((id) => ({ id }))));
      for (const id of ids) history.push(tool(id, `output of ${id}: ${"x".repeat(outputChars)}`));
    }
    history.push(assistant(`turn ${t} done: fixed bug #${t}`));
  }
  return history;
}

/**
 * What every provider accepts: the first message is a user message; no two user messages and
 * no two plain assistant messages in a row; each assistant tool call is answered right after
 * it, in call order, and every tool result belongs to the assistant message before it.
 */
export function assertValidForProviders(history: readonly ChatMessage[]): void {
  assert.equal(history[0]?.role, "user", "starts with a user message");
  for (let i = 0; i < history.length; i++) {
    const message = history[i];
    const previous = history[i - 1];
    if (message.role === "user") assert.notEqual(previous?.role, "user", `two user messages in a row at ${i}`);
    if (message.role === "assistant" && previous?.role === "assistant") assert.ok(previous.toolCalls?.length, `two assistant messages in a row at ${i}`);
    if (message.role === "assistant" && message.toolCalls?.length) {
      message.toolCalls.forEach((call, k) => {
        const result = history[i + 1 + k];
        assert.ok(result?.role === "tool" && result.toolCallId === call.id, `call ${call.id} at ${i} is answered right after it`);
      });
      const after = history[i + 1 + message.toolCalls.length];
      assert.notEqual(after?.role, "tool", `no stray tool result after the results of ${i}`);
    }
    if (message.role === "tool") {
      let j = i - 1;
      while (history[j]?.role === "tool") j--;
      const owner = history[j];
      assert.ok(owner?.role === "assistant" && owner.toolCalls?.some((c) => c.id === message.toolCallId), `tool result ${message.toolCallId} at ${i} has its call`);
    }
  }
}

export interface RecordingObserver extends TurnObserver {
  started: string[];
  finished: { id: string; report: CompactionReport }[];
  contextUsages: number[];
  notices: string[];
  text: string;
}

export function recordingObserver(): RecordingObserver {
  const seen = { started: [] as string[], finished: [] as { id: string; report: CompactionReport }[], contextUsages: [] as number[], notices: [] as string[], text: "" };
  return Object.assign(seen, {
    textDelta: (t: string) => void (seen.text += t),
    reasoningDelta: () => {},
    toolCallPending: () => {},
    toolCallRunning: () => {},
    toolCallProgress: () => {},
    toolCallFinished: () => {},
    plan: () => {},
    usage: () => {},
    notice: (t: string) => void seen.notices.push(t),
    compactionStarted: (id: string) => void seen.started.push(id),
    compactionFinished: (id: string, report: CompactionReport) => void seen.finished.push({ id, report }),
    contextUsage: (used: number) => void seen.contextUsages.push(used),
  });
}

/** Opening of the system prompt of a summary request (see agent/summarize.ts). */
export const SUMMARY_REQUEST = "You are compressing the earlier part of a coding session";

export function isSummaryRequest(request: RecordedRequest): boolean {
  const system = request.body?.messages?.[0];
  return system?.role === "system" && typeof system.content === "string" && system.content.startsWith(SUMMARY_REQUEST);
}

/** The text of the user message of a summary request. */
export function summaryRequestText(request: RecordedRequest): string {
  return String(request.body.messages[1].content);
}

/** A summary in the structured template, numbered so tests can tell them apart. */
export function templateSummary(n: number, extra = ""): string {
  return [
    "## Goal",
    `Fix the bugs (summary ${n}).${extra}`,
    "## Constraints & Preferences",
    "None",
    "## Progress",
    "### Done",
    `Summary number ${n}`,
    "### In progress",
    "None",
    "### Blocked",
    "None",
    "## Key Decisions",
    "None",
    "## Relevant Files",
    "src/module-0.ts",
    "## Next Steps",
    "Continue",
    "## Critical Context",
    "None",
  ].join("\n");
}
