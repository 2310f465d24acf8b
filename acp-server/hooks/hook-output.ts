// What hooks said, combined for one event, read as Claude Code defines it: exit 0 goes on (its
// stdout is context for UserPromptSubmit and SessionStart, or a JSON answer); exit 2 blocks, with
// stderr as the reason; any other exit, a timeout or a hook that could not start is a failure
// the user is told about, and counts as no decision. The JSON answer (zod, loose): `continue` /
// `stopReason`, `suppressOutput`, `systemMessage`, `decision` / `reason` (also the older
// approve/block), and `hookSpecificOutput` with `permissionDecision`, `permissionDecisionReason`,
// `updatedInput` and `additionalContext`. A malformed answer is a failure, not a decision.
import * as z from "zod";
import type { HookEvent } from "../config/hooks-schema";
import type { HookRun } from "./hook-runner";
import { describeOrigin } from "./hook-sources";

export interface HookVerdict {
  /** A hook blocked: the reason (exit 2's stderr, or a decision's reason). */
  block?: string;
  /** PreToolUse: the strongest decision (deny > ask > allow) and its reason. */
  permission?: "allow" | "deny" | "ask";
  permissionReason?: string;
  /** PreToolUse: the input the tool runs with instead (the last hook's that gave one). */
  updatedInput?: Record<string, unknown>;
  /** Text for the model. */
  context: string[];
  /** Text for the user. */
  messages: string[];
  /** `continue: false`: the agent stops, with this reason. */
  stop?: string;
  /** Hooks that failed (not a decision): one line each, for the user. */
  failures: string[];
  /** Which hooks decided what, one line each (the tool card, the journal). */
  said: string[];
}

function answerSchema() {
  return z.looseObject({
    continue: z.boolean().optional(),
    stopReason: z.string().optional(),
    suppressOutput: z.boolean().optional(),
    systemMessage: z.string().optional(),
    decision: z.enum(["approve", "block", "allow", "deny"]).optional(),
    reason: z.string().optional(),
    hookSpecificOutput: z
      .looseObject({
        permissionDecision: z.enum(["allow", "deny", "ask"]).optional(),
        permissionDecisionReason: z.string().optional(),
        updatedInput: z.record(z.string(), z.unknown()).optional(),
        additionalContext: z.string().optional(),
      })
      .optional(),
  });
}
let schema: ReturnType<typeof answerSchema> | undefined;

const RANK = { allow: 1, ask: 2, deny: 3 } as const;

export function combineHookRuns(event: HookEvent, runs: readonly HookRun[]): HookVerdict {
  const verdict: HookVerdict = { context: [], messages: [], failures: [], said: [] };
  for (const run of runs) {
    const who = `${run.spec.command} (${describeOrigin(run.spec.origin)})`;
    if (run.error !== undefined) {
      verdict.failures.push(`the hook ${who} could not start: ${run.error}`);
      continue;
    }
    if (run.timedOut) {
      verdict.failures.push(`the hook ${who} took longer than ${run.spec.timeout} s and was stopped`);
      continue;
    }
    if (run.exitCode === 2) {
      const reason = run.stderr.trim() || `blocked by the hook ${run.spec.command}`;
      verdict.block = verdict.block ? `${verdict.block}\n${reason}` : reason;
      if (event === "PreToolUse") raise(verdict, "deny", reason);
      verdict.said.push(`${who} blocked: ${reason}`);
      continue;
    }
    if (run.exitCode !== 0) {
      verdict.failures.push(`the hook ${who} failed (exit ${run.exitCode ?? "signal"})${run.stderr.trim() ? `: ${run.stderr.trim().split("\n").slice(-3).join(" / ")}` : ""}`);
      continue;
    }
    const text = run.stdout.trim();
    if (!text) continue;
    if (!text.startsWith("{")) {
      // Plain output is context where Claude Code makes it context.
      if (event === "UserPromptSubmit" || event === "SessionStart") verdict.context.push(text);
      continue;
    }
    let answer: z.infer<ReturnType<typeof answerSchema>>;
    try {
      const parsed = (schema ??= answerSchema()).safeParse(JSON.parse(text));
      if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? "not a hook answer");
      answer = parsed.data;
    } catch (error) {
      verdict.failures.push(`the hook ${who} printed JSON Hermes cannot read (${(error as Error).message}); taken as no decision`);
      continue;
    }
    if (answer.systemMessage) verdict.messages.push(answer.systemMessage);
    if (answer.continue === false) verdict.stop = answer.stopReason ?? `stopped by the hook ${run.spec.command}`;
    const specific = answer.hookSpecificOutput;
    if (specific?.additionalContext) verdict.context.push(specific.additionalContext);
    if (event === "PreToolUse") {
      const decision = specific?.permissionDecision ?? (answer.decision === "approve" ? "allow" : answer.decision === "block" ? "deny" : answer.decision);
      if (decision === "allow" || decision === "deny" || decision === "ask") {
        const reason = specific?.permissionDecisionReason ?? answer.reason;
        raise(verdict, decision, reason);
        verdict.said.push(`${who}: ${decision}${reason ? ` (${reason})` : ""}`);
      }
      if (specific?.updatedInput) {
        verdict.updatedInput = specific.updatedInput;
        verdict.said.push(`${who} rewrote the input`);
      }
    } else if (answer.decision === "block" || answer.decision === "deny") {
      const reason = answer.reason ?? `blocked by the hook ${run.spec.command}`;
      verdict.block = verdict.block ? `${verdict.block}\n${reason}` : reason;
      verdict.said.push(`${who} blocked: ${reason}`);
    }
  }
  return verdict;
}

function raise(verdict: HookVerdict, decision: "allow" | "deny" | "ask", reason: string | undefined): void {
  if (verdict.permission && RANK[verdict.permission] >= RANK[decision]) return;
  verdict.permission = decision;
  verdict.permissionReason = reason;
}
