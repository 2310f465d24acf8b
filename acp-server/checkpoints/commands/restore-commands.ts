// /checkpoints, /undo and /rollback: the checkpoint store (acp-server/checkpoints/) behind
// slash commands. A restore always asks first: the permission request carries the diff of
// every file it would change and names the files changed after the agent's turn, with three
// choices: keep those files and restore the rest, restore everything (overwriting them), or
// cancel. `--conversation` also rewinds the conversation: the session is forked before that
// turn (session/fork's "hermes/turns" cut), so the current one is never lost.
import type { CheckpointStore, TurnSummary } from "../store";
import type { RestorePlan, RestoreResult } from "../types";
import { isAgentError } from "../../util/agent-error";
import type { ChoiceQuestion } from "../../runtime/client-channel";
import type { CommandContext, CommandResult } from "../../runtime/slash-command";
import { restorePreview } from "./restore-preview";

/** What the checkpoint commands use of a command's context. */
export type CheckpointCommandDeps = Pick<CommandContext, "runtime" | "session" | "output" | "client" | "signal" | "log" | "fork">;

/** The option ids of a restore's permission request. */
const RESTORE = "restore";
const SKIP_CONFLICTS = "restore_keep_changed";
const OVERWRITE = "restore_overwrite";
const CANCEL = "cancel";

/**
 * What a command did that the client may act on: the session a rewind forked, and what became
 * of a restore ("restored"; "nothing" to restore; "cancelled" by the user; "unavailable":
 * checkpoints are off, the turn has none, or the plan failed).
 */
export type CheckpointCommandOutcome = Pick<CommandResult, "forkedSessionId" | "restore">;

/** The checkpoint commands by name: `/checkpoints`, `/undo`, `/rollback`, `/rewind`. */
export type CheckpointCommandName = "checkpoints" | "undo" | "rollback" | "rewind";

export async function runCheckpointCommand(name: CheckpointCommandName, deps: CheckpointCommandDeps & { argument: string }): Promise<CheckpointCommandOutcome> {
  const outcome: CheckpointCommandOutcome = {};
  await runIt({ name, argument: deps.argument }, deps, outcome);
  return outcome;
}

async function runIt(command: { name: CheckpointCommandName; argument: string }, deps: CheckpointCommandDeps, outcome: CheckpointCommandOutcome): Promise<void> {
  const say = (text: string) => deps.output.say(text);
  if (command.name === "rewind") {
    const turn = Number(command.argument);
    const latest = deps.session.agent.promptCount;
    if (!Number.isInteger(turn) || turn < 1 || turn > latest) return say(`Usage: \`/rewind N\`: N is a turn of this session, 1 to ${latest}.`);
    return say(await rewind(deps, turn, outcome));
  }
  if (command.name !== "checkpoints") outcome.restore = "unavailable";
  const opened = await deps.runtime.checkpoints.open(deps.session.agent.cwd);
  if (!opened.ok) return say(`Checkpoints are off: ${opened.reason}.`);
  const { store } = opened;
  const sessionId = deps.session.id;
  if (command.name === "checkpoints") return say(listing(await store.turns(sessionId)));

  const request = command.name === "undo" ? { turn: undefined, conversation: false } : parseRollback(command.argument);
  if (typeof request === "string") return say(request);
  const turns = await store.turns(sessionId);
  const latest = turns[turns.length - 1];
  if (!latest) return say("This session has no checkpoint yet: no turn has changed files since checkpoints were on.");
  const turn = request.turn ?? latest.turn;
  if (!turns.some((entry) => entry.turn === turn)) {
    return say(`Turn ${turn} has no checkpoint in this session (it changed no files, or was pruned). \`/checkpoints\` lists the turns that have one.`);
  }
  let plan: RestorePlan;
  try {
    plan = await store.planRestore(sessionId, turn);
  } catch (error) {
    if (isAgentError(error)) return say(`Cannot restore: ${error.message}`);
    throw error;
  }
  const what = command.name === "undo" ? `Undo turn ${turn}` : `Roll back to before turn ${turn}`;
  if (plan.ops.length === 0) {
    outcome.restore = "nothing";
    const earlier = command.name === "undo" ? " (`/rollback N` returns to an earlier turn)" : "";
    if (!request.conversation) return say(`Nothing to restore: the workspace already matches the state before turn ${turn}${earlier}.`);
    return say(await rewind(deps, turn, outcome));
  }
  const choice = await askToRestore(deps, store, plan, what);
  if (choice === CANCEL) {
    outcome.restore = "cancelled";
    return say("Restore cancelled; nothing was changed.");
  }
  const result = await store.restore(plan, { overwriteConflicts: choice === OVERWRITE });
  outcome.restore = "restored";
  let text = report(result, turn);
  if (request.conversation) text += `\n\n${await rewind(deps, turn, outcome)}`;
  return say(text);
}

/** `/rollback [N] [--conversation]`, or what is wrong with it. */
export function parseRollback(argument: string): { turn?: number; conversation: boolean } | string {
  const words = argument.split(/\s+/).filter(Boolean);
  const conversation = words.includes("--conversation");
  const rest = words.filter((word) => word !== "--conversation");
  if (rest.length === 0) return { conversation };
  const turn = Number(rest[0]);
  if (rest.length > 1 || !Number.isInteger(turn) || turn < 1) return "Usage: `/rollback [N] [--conversation]`: N is a turn number from `/checkpoints` (default: the last one).";
  return { turn, conversation };
}

export function listing(turns: TurnSummary[]): string {
  if (turns.length === 0) return "No checkpoints in this session yet: a checkpoint is taken before the first change of each turn.";
  const lines = turns.map((entry) => {
    const when = new Date(entry.time).toISOString().replace("T", " ").slice(0, 16);
    const prompt = entry.prompt ? ` · "${entry.prompt.replace(/\s+/g, " ").slice(0, 60)}"` : "";
    const files =
      entry.changedCount === undefined
        ? " · did not finish"
        : ` · ${entry.changedCount} file${entry.changedCount === 1 ? "" : "s"} changed${entry.changed?.length ? ` (${entry.changed.slice(0, 5).join(", ")}${entry.changedCount > 5 ? ", …" : ""})` : ""}`;
    return `- Turn ${entry.turn} · ${when} UTC${prompt}${files}`;
  });
  return `${lines.join("\n")}\n\n\`/undo\` reverts the last of these turns; \`/rollback N\` returns the files to before turn N (\`--conversation\` also rewinds the chat into a new session).`;
}

async function askToRestore(deps: CheckpointCommandDeps, store: CheckpointStore, plan: RestorePlan, what: string): Promise<string> {
  const content = await restorePreview(plan, store, `${what}: the files go back to how they were before that turn.`);
  const locations = plan.ops.slice(0, 40).map((op) => ({ path: `${store.workspace}/${op.path}` }));
  const title = `${what} (${plan.ops.length} file${plan.ops.length === 1 ? "" : "s"})`;
  const conflicts = plan.conflicts.length;
  const options: ChoiceQuestion["options"] = conflicts
    ? [
        { id: SKIP_CONFLICTS, name: `Restore, but keep the ${conflicts} file${conflicts === 1 ? "" : "s"} changed since`, kind: "allow_once" },
        { id: OVERWRITE, name: "Restore anyway (overwrite them)", kind: "allow_once" },
        { id: CANCEL, name: "Cancel", kind: "reject_once" },
      ]
    : [
        { id: RESTORE, name: "Restore", kind: "allow_once" },
        { id: CANCEL, name: "Cancel", kind: "reject_once" },
      ];
  // Unanswered (an error, the timeout, a cancelled turn) is a cancel: nothing is restored without a yes.
  const choice = await deps.client.choose({ purpose: "restore", title, content, locations, options, fallback: CANCEL, timeoutMs: deps.runtime.loaded.config.approvals.timeout * 1000 }, deps.signal);
  return choice === RESTORE ? SKIP_CONFLICTS : choice;
}

function report(result: RestoreResult, turn: number): string {
  const lines = [`Restored ${result.applied.length} file${result.applied.length === 1 ? "" : "s"} to before turn ${turn}.`];
  if (result.skipped.length) lines.push(`Kept as they are: ${result.skipped.map((s) => `\`${s.path}\` (${s.reason})`).join(", ")}.`);
  if (result.failed.length) lines.push(`**Could not restore:** ${result.failed.map((f) => `\`${f.path}\` (${f.error})`).join(", ")}.`);
  lines.push(`The state before this restore is kept in the checkpoint store (commit ${result.backupCommit.slice(0, 12)}).`);
  return lines.join("\n\n");
}

async function rewind(deps: CheckpointCommandDeps, turn: number, outcome: CheckpointCommandOutcome): Promise<string> {
  if (!deps.fork) return "The conversation cannot be rewound here.";
  const forked = await deps.fork(turn - 1);
  outcome.forkedSessionId = forked;
  return `Rewound the conversation: session \`${forked}\` holds this chat up to before turn ${turn} (this session is unchanged; open the new one from the session list).`;
}
