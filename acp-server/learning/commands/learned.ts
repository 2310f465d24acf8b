// /learned: what the learning review saved, newest first (this session's marked), and
// `/learned undo <id>` to take one back. Answered without the model.
import { LearningLedger, type LearnedChange } from "../ledger";
import { undoLearnedChange } from "../undo";
import { defineCommand } from "../../runtime/slash-command";

const LISTED = 20;

export function learnedAnswer(argument: string, home: string, sessionId: string): string {
  const ledger = new LearningLedger(home);
  const [verb, id] = argument.split(/\s+/);
  if (verb === "undo") {
    if (!id) return "Usage: `/learned undo <id>` (`/learned` lists the ids).";
    return undoLearnedChange(ledger, id).message;
  }
  if (verb) return `Unknown: \`/learned ${argument}\`. \`/learned\` lists what was learned; \`/learned undo <id>\` takes one back.`;
  const changes = ledger.list(LISTED);
  if (changes.length === 0) return "Nothing learned yet. After a turn with significant work, Hermes reviews it in the background and may save a memory or a skill (config.yaml `learning.review`).";
  return [`**Learned** (newest first; \`/learned undo <id>\` takes one back)`, ...changes.map((change) => line(change, sessionId))].join("\n");
}

function line(change: LearnedChange, sessionId: string): string {
  const state = change.undone ? " — undone" : "";
  const here = change.sessionId === sessionId ? " (this session)" : "";
  return `- \`${change.id}\` ${change.at.slice(0, 16).replace("T", " ")}${here}: ${change.what} → \`${change.where}\`${state}`;
}

export const learnedCommand = defineCommand({
  name: "learned",
  description: "What the learning review saved (memory, skills), and undo one",
  hint: "undo <id> (empty: list)",
  run: ({ argument, runtime, session, output }) => output.say(learnedAnswer(argument, runtime.loaded.home, session.id)),
});
