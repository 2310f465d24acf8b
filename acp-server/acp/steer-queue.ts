// /steer and /queue: the two commands answered the moment they arrive, even while a turn runs
// (every other prompt waits its turn in the session's queue, AcpSession.enqueue).
// - `/steer <text>` hands the text to the running turn (AgentSession.steer): the loop adds it
//   before its next model call, at the next tool boundary, without cancelling anything. Its own
//   request answers at once. With no turn running it is not lost: it runs as an ordinary prompt.
// - `/queue` lists the prompts waiting behind the running turn; `/queue clear` drops them (their
//   requests answer `cancelled`).
import type * as acp from "@agentclientprotocol/sdk/unstable";
import { invalidParams } from "../util/agent-error";
import type { AcpSession } from "./acp-session";
import type { Command } from "./commands";
import { textChunk } from "./updates";

/** What an immediate command did: answered, or (a /steer with nothing to steer) a prompt to run instead. */
export type ImmediateOutcome = { kind: "answered"; response: acp.PromptResponse } | { kind: "prompt"; prompt: acp.ContentBlock[] };

export function runImmediateCommand(command: Command, session: AcpSession, say: (update: acp.SessionUpdate) => void): ImmediateOutcome {
  if (command.name === "steer") {
    const text = command.argument;
    if (!text) throw invalidParams("/steer needs the guidance to send, e.g. /steer use the existing helper instead", { sessionId: session.id });
    if (session.agent.steer(text)) return { kind: "answered", response: { stopReason: "end_turn", _meta: { "hermes/steer": "pending" } } };
    return { kind: "prompt", prompt: [{ type: "text", text }] };
  }
  // queue
  const argument = command.argument.toLowerCase();
  if (argument === "clear") {
    say(textChunk(`\n\n${clearedText(session.clearQueue())}\n\n`));
  } else if (argument) {
    throw invalidParams(`/queue takes no argument or "clear", not "${command.argument}"`, { sessionId: session.id });
  } else {
    say(textChunk(`\n\n${queueListing(session.waiting.map((prompt) => prompt.label))}\n\n`));
  }
  return { kind: "answered", response: { stopReason: "end_turn" } };
}

/** What /queue clear says it did. */
export function clearedText(dropped: number): string {
  return dropped === 0 ? "The queue is empty: nothing to clear." : `Cleared the queue: ${dropped} waiting ${dropped === 1 ? "prompt" : "prompts"} dropped.`;
}

/** The waiting prompts, numbered, each on one line. */
export function queueListing(waiting: readonly string[]): string {
  if (waiting.length === 0) return "The queue is empty: no prompt waits behind the running turn.";
  const lines = waiting.map((label, index) => `${index + 1}. ${oneLine(label) || "(attachments only)"}`);
  return `${waiting.length === 1 ? "1 prompt waits" : `${waiting.length} prompts wait`} behind the running turn:\n${lines.join("\n")}\n\n\`/queue clear\` drops them.`;
}

function oneLine(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
