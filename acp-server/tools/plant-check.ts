// The terminal tool's side of the plant guard (security/git-plant-guard.ts): a snapshot of what
// git and the editor run later before each command, the check and undo after it, and the
// finding told to the model (in the result) and to the user (in the card). Wherever the command
// ran: the sandbox, a local process outside it, an editor's terminal.
import { GitPlantGuard, type PlantReport } from "../security/git-plant-guard";
import { createLogger } from "../util/log";
import type { ToolContext } from "./context";
import type { ToolResult } from "./registry";

const log = createLogger("plant-check");

/** Snapshots the workspace's roots now; the returned function checks, undoes and reports. */
export function startPlantCheck(ctx: Pick<ToolContext, "cwd" | "extraRoots" | "sessionId">): (result: ToolResult) => ToolResult {
  let guard: GitPlantGuard | undefined;
  try {
    guard = GitPlantGuard.before([ctx.cwd, ...(ctx.extraRoots ?? [])]);
  } catch (err) {
    // Not silent: the result says the check could not run, so nobody relies on it.
    log.warn("could not snapshot git's files before the command", { sessionId: ctx.sessionId, err });
    return (result) => withNote(result, { undone: [], notRestored: [`Hermes could not record git's hooks and config before this command (${String(err)}); nothing planted by it was checked`] });
  }
  return (result) => {
    let report: PlantReport;
    try {
      report = guard.check();
    } catch (err) {
      log.warn("could not check git's files after the command", { sessionId: ctx.sessionId, err });
      report = { undone: [], notRestored: [`Hermes could not check git's hooks and config after this command (${String(err)})`] };
    }
    if (report.undone.length > 0 || report.notRestored.length > 0) log.warn("a command changed what git or the editor runs later", { sessionId: ctx.sessionId, ...report });
    return withNote(result, report);
  };
}

/** The result with the report added (unchanged when nothing was found). */
export function withNote(result: ToolResult, report: PlantReport): ToolResult {
  if (report.undone.length === 0 && report.notRestored.length === 0) return result;
  const lines = [
    "Hermes undid changes to what git or the editor would run later, outside the sandbox (hooks, git settings that run programs, new repositories, editor tasks). Do not retry: ask the user to make such a change themselves.",
    ...report.undone.map((line) => `- ${line}`),
    ...report.notRestored.map((line) => `- NOT RESTORED: ${line}`),
    ...(report.partial ? [`- not fully checked: ${report.partial}`] : []),
  ];
  const output = typeof result.output === "object" && result.output !== null ? { ...(result.output as Record<string, unknown>), planted_code: lines.join("\n") } : { result: result.output, planted_code: lines.join("\n") };
  return { ...result, output, content: [...(result.content ?? []), { type: "text", text: `⚠ ${lines.join("\n")}` }] };
}
