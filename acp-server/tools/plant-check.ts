// The terminal tool's side of the plant guard (security/git-plant-guard.ts): a snapshot of what
// git and the editor run later before each command, the check and undo after it, and the
// finding told to the model (in the result) and to the user (in the card). Wherever the command
// ran: the sandbox, a local process outside it, an editor's terminal.
//
// Background commands are checked when they end. While one still runs, it can plant between
// two commands, where the next command's snapshot would take the plant for the baseline: so
// then the surface is first compared with the one the last check left, and what changed in
// between is undone and reported with the next command (your own change to hooks or git's
// run-later settings made meanwhile would be undone too, and reported).
import { GitPlantGuard, type PlantReport } from "../security/git-plant-guard";
import type { GitSurface } from "../security/git-surface";
import { createLogger } from "../util/log";
import type { SessionToolState, ToolContext } from "./context";
import type { ToolResult } from "./registry";

const log = createLogger("plant-check");

interface SessionWatch {
  /** The surface as the last check left it. */
  checked?: GitSurface;
  /** Background commands of the session not yet ended. */
  running: number;
}

const watches = new WeakMap<SessionToolState, SessionWatch>();

type CheckContext = Pick<ToolContext, "cwd" | "extraRoots" | "sessionId" | "state">;

/**
 * Snapshots the workspace's roots now; the returned function checks, undoes and reports. For a
 * background command, call `background()` on it at start and the function when it ends.
 */
export function startPlantCheck(ctx: CheckContext): ((result: ToolResult) => ToolResult) & { background(): void } {
  const watch = watches.get(ctx.state) ?? { running: 0 };
  watches.set(ctx.state, watch);
  const roots = [ctx.cwd, ...(ctx.extraRoots ?? [])];
  let guard: GitPlantGuard | undefined;
  let meanwhile: PlantReport | undefined;
  try {
    if (watch.running > 0 && watch.checked) {
      const between = GitPlantGuard.since(roots, watch.checked).check();
      meanwhile = { ...between, undone: between.undone.map((line) => `while a background command ran: ${line}`) };
      guard = GitPlantGuard.since(roots, between.checked);
    } else guard = GitPlantGuard.before(roots);
  } catch (err) {
    // Not silent: the result says the check could not run, so nobody relies on it.
    log.warn("could not snapshot git's files before the command", { sessionId: ctx.sessionId, err });
  }
  let backgroundRun = false;
  const finish = (result: ToolResult): ToolResult => {
    if (backgroundRun) watch.running--;
    if (!guard) return withNote(result, { undone: [], notRestored: ["Hermes could not record git's hooks and config before this command; nothing planted by it was checked"] });
    let report: PlantReport;
    try {
      // A background command ends long after it started: compared with what the last check left.
      const checked = (backgroundRun && watch.checked ? GitPlantGuard.since(roots, watch.checked) : guard).check();
      watch.checked = checked.checked;
      report = { undone: [...(meanwhile?.undone ?? []), ...checked.undone], notRestored: [...(meanwhile?.notRestored ?? []), ...checked.notRestored], ...(checked.partial ? { partial: checked.partial } : {}) };
    } catch (err) {
      log.warn("could not check git's files after the command", { sessionId: ctx.sessionId, err });
      report = { undone: meanwhile?.undone ?? [], notRestored: [...(meanwhile?.notRestored ?? []), `Hermes could not check git's hooks and config after this command (${String(err)})`] };
    }
    if (report.undone.length > 0 || report.notRestored.length > 0) log.warn("a command changed what git or the editor runs later", { sessionId: ctx.sessionId, ...report });
    return withNote(result, report);
  };
  return Object.assign(finish, {
    background() {
      backgroundRun = true;
      watch.running++;
    },
  });
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
