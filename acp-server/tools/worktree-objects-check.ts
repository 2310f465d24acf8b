// After each command in a chat's own worktree: the git objects its sandboxed commands wrote
// into the worktree's private object folder are brought into the main repository, verified
// (security/worktree-objects.ts), so the branch reads the same outside the sandbox as inside,
// and where the command left the branch is noted (security/worktree-branch-tip.ts).
// What could not be brought in, or was planted under a false name, is told to the model (in the
// result) and to the user (in the card): the branch cannot be read outside until it is fixed.
import { recordBranchTip } from "../security/worktree-branch-tip";
import { importWorktreeObjects } from "../security/worktree-objects";
import { createLogger } from "../util/log";
import type { ToolContext } from "./context";
import type { ToolResult } from "./registry";

const log = createLogger("worktree-objects");

type ImportContext = Pick<ToolContext, "cwd" | "extraRoots" | "sessionId">;

/** The problems of importing each workspace root's private objects; empty when all went in. */
export async function importCommandObjects(ctx: ImportContext): Promise<string[]> {
  const problems: string[] = [];
  for (const root of [ctx.cwd, ...(ctx.extraRoots ?? [])]) {
    try {
      const { dropped } = await importWorktreeObjects(root);
      if (dropped.length > 0) problems.push(`git objects whose content does not match their names were not brought into the main repository (${dropped.slice(0, 5).join(", ")}${dropped.length > 5 ? ", …" : ""}): what refers to them is broken`);
    } catch (err) {
      problems.push((err as Error).message ?? String(err));
    }
    // Where this chat's own command left its branch: a merge later checks nobody else moved it.
    // Not noted, a merge refuses (the safe side), so a failure here is only logged.
    await recordBranchTip(root).catch((err: unknown) => log.warn("could not note where a chat worktree's branch is; /worktree apply --merge refuses until it is", { sessionId: ctx.sessionId, root, err }));
  }
  if (problems.length > 0) log.warn("a worktree's new git objects could not all be brought into the main repository", { sessionId: ctx.sessionId, problems });
  return problems;
}

/** The result with the import's problems added (unchanged when there were none). */
export async function withImportedObjects(ctx: ImportContext, result: ToolResult): Promise<ToolResult> {
  const problems = await importCommandObjects(ctx);
  if (problems.length === 0) return result;
  const text = ["Hermes could not bring all of this worktree's new git objects into the main repository:", ...problems.map((line) => `- ${line}`)].join("\n");
  const output = typeof result.output === "object" && result.output !== null ? { ...(result.output as Record<string, unknown>), git_objects: text } : { result: result.output, git_objects: text };
  return { ...result, output, content: [...(result.content ?? []), { type: "text", text: `⚠ ${text}` }] };
}
