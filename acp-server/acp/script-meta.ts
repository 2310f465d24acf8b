// What a scripting client (`hermes -p`, or any ACP client) may ask for in `_meta`, read with zod:
// - session/new, load, resume: `_meta["hermes/disabledTools"]`: tool or toolset names switched
//   off for the session (as `/tools disable` does, journaled with it);
// - session/prompt: `_meta["hermes/maxTurns"]`: at most this many model calls with tools in the
//   turn, instead of agent.max_turns;
// - session/new: `_meta["hermes/worktree"]`: `true` or `{branch?, base?, carry?}`, the session in
//   its own git worktree (worktrees/session-worktree.ts).
// A value that is present but malformed is invalid params, not ignored: a script must not run
// with tools it asked to have off.
import * as z from "zod";
import { AgentError } from "../util/agent-error";
import type { WorktreeRequest } from "../worktrees/session-worktree";

const DISABLED_TOOLS = "hermes/disabledTools";
const MAX_TURNS = "hermes/maxTurns";
export const WORKTREE_META = "hermes/worktree";

type Meta = Record<string, unknown> | null | undefined;

function read<T>(meta: Meta, key: string, schema: z.ZodType<T>): T | undefined {
  const value = meta?.[key];
  if (value === undefined) return undefined;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new AgentError("invalid_params", `_meta["${key}"]: ${parsed.error.issues[0]?.message ?? "invalid"}`, { key });
  return parsed.data;
}

export function disabledToolsOf(meta: Meta): string[] | undefined {
  return read(meta, DISABLED_TOOLS, z.array(z.string().min(1)).max(200));
}

export function maxTurnsOf(meta: Meta): number | undefined {
  return read(meta, MAX_TURNS, z.number().int().positive().max(10_000));
}

/** session/new's worktree request; its schema loads only when one is asked for. */
export async function worktreeOf(meta: Meta): Promise<WorktreeRequest | undefined> {
  if (meta?.[WORKTREE_META] === undefined) return undefined;
  const { worktreeRequestSchema } = await import("../worktrees/session-worktree");
  return read(meta, WORKTREE_META, worktreeRequestSchema());
}
