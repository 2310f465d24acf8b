// `_hermes/worktree/changes` and `_hermes/worktree/apply` (common/worktree-review.ts): the
// panel's "Review & apply" of a worktree chat. Params checked here; the work is the worktrees
// feature's (worktrees/worktree-review.ts). A refused apply is told in the chat and kept in its
// record, so it is still there after a reload. Loaded on first use.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import * as z from "zod";
import { WORKTREE_METHODS } from "../../common/hermes-methods";
import { worktreeApplyParamsSchema, worktreeChangesParamsSchema, type WorktreeApplyResult, type WorktreeChanges } from "../../common/worktree-review";
import type { LiveSession } from "../runtime/live-session";
import { invalidParams, invalidRequest } from "../util/agent-error";
import type { Logger } from "../util/log";
import { notifyAfterResponse } from "./session-settings";
import { noticeChunk } from "./updates";

function parse<T>(schema: z.ZodType<T>, method: string, raw: unknown): T {
  const parsed = schema.safeParse(raw ?? {});
  if (!parsed.success) throw invalidParams(`invalid ${method} params: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

export function changesParams(raw: unknown): { sessionId: string } {
  return parse(worktreeChangesParamsSchema, WORKTREE_METHODS.changes, raw);
}

export function applyParams(raw: unknown): z.infer<typeof worktreeApplyParamsSchema> {
  return parse(worktreeApplyParamsSchema, WORKTREE_METHODS.apply, raw);
}

export async function worktreeChangesOf(session: LiveSession): Promise<WorktreeChanges> {
  const worktree = session.worktree;
  if (!worktree) return { worktree: null, files: [] };
  const { worktreeChanges } = await import("../worktrees/worktree-review");
  return { worktree: { branch: worktree.branch, path: worktree.path, repo: worktree.repo }, files: await worktreeChanges(worktree) };
}

export async function applyAccepted(session: LiveSession, params: z.infer<typeof worktreeApplyParamsSchema>, client: acp.AgentContext, log: Logger): Promise<WorktreeApplyResult> {
  const worktree = session.worktree;
  if (!worktree) throw invalidRequest("This chat does not work in a worktree (any more).");
  // The worktree must hold still while its hunks are cut again: not during a turn.
  if (session.busy) throw invalidRequest("Wait for the chat's turn to finish before applying its changes.");
  const { applyAcceptedHunks } = await import("../worktrees/worktree-review");
  const outcome = await applyAcceptedHunks(worktree, params.files, session.agent.title ?? `Hermes chat ${session.id.slice(0, 8)}`);
  const list = (files: string[]) => files.join(", ");
  let result: WorktreeApplyResult;
  if (outcome.status === "applied") result = { status: "applied", files: outcome.files, message: `Applied the accepted changes to ${worktree.repo} as uncommitted changes: ${list(outcome.files)}.${keptNote(outcome.kept)}` };
  else if (outcome.status === "nothing") result = { status: "nothing", files: [], message: "Nothing to apply: no change was accepted." };
  else if (outcome.status === "stale") result = { status: "refused", files: outcome.files, message: `Not applied: the chat changed these files since you reviewed them (review again): ${list(outcome.files)}. Nothing was changed.` };
  else result = { status: "refused", files: outcome.files, message: `Not applied: ${outcome.reason}. Nothing was changed, here or in your checkout: ${list(outcome.files)}.` };
  // A refusal, or files left as the user had them, is a warning kept in the chat's record (a
  // reload shows it; notices read as warnings). A refusal is also told in the chat now; the panel
  // says the rest itself (extension/worktree-review.ts).
  if (result.status === "refused" || (outcome.status === "applied" && outcome.kept.length > 0)) session.agent.recordNotice(result.message);
  if (result.status === "refused") notifyAfterResponse(client, session.id, noticeChunk(result.message), log);
  return result;
}

/** Files an apply left as the checkout had them, said after the ones it applied. */
function keptNote(kept: { file: string; reason: string }[]): string {
  return kept.length ? ` Not written, your version kept: ${kept.map((entry) => `${entry.file} (${entry.reason})`).join(", ")}.` : "";
}
