// session/prompt at the edge: the ACP request becomes the app's PromptInput (app/prompt-turn.ts
// runs it), and the app's outcome becomes the PromptResponse (stop reason, usage, and what a
// command did in `_meta`).
import type * as acp from "@agentclientprotocol/sdk/unstable";
import { runPrompt, type PromptInput, type PromptOutcome } from "../app/prompt-turn";
import { maxTurnsOf } from "./script-meta";
import type { LiveSession } from "../runtime/live-session";
import type { TurnStep } from "../runtime/turn-step";
import type { AgentRuntime } from "../runtime/runtime";
import type { Logger } from "../util/log";
import { acpChannel } from "./acp-channel";
import { acpChildAgents } from "./child-agent/run-child";
import { toRequestError } from "./error-map";
import { toUserParts } from "./prompt-content";
import { isQueueId, QUEUE_ID_META } from "../../common/queue-wire";
import { AcpTurnObserver } from "./turn-observer";
import { promptUsage } from "./updates";

export interface PromptDeps {
  runtime: AgentRuntime;
  clientCapabilities: acp.ClientCapabilities;
  log: Logger;
  /** Forks a session keeping its first `turns` prompts (the conversation rewind); the new session's id. */
  fork?: (sessionId: string, turns: number) => Promise<string>;
}

export { prepareSystemPrompt } from "../app/prompt-turn";

/**
 * The edge's own step after every turn: the replay cache a later session/load is served from,
 * kept current (replay-send.ts). The replay code loads with the first answered turn, not before.
 */
const replayRefreshStep: TurnStep = {
  name: "replay cache refresh",
  answered: ({ session, runtime, log }) => {
    import("./replay-send")
      .then(({ refreshReplayCacheWhenIdle }) => refreshReplayCacheWhenIdle(session, runtime.sessions, log))
      .catch((error: unknown) => log.warn("loading the replay code to refresh its cache failed", { sessionId: session.id, error }));
  },
};
const FRONT_END_STEPS = [replayRefreshStep];

export async function handlePrompt(
  deps: PromptDeps,
  session: LiveSession,
  params: acp.PromptRequest,
  client: acp.AgentContext,
  requestSignal: AbortSignal,
): Promise<acp.PromptResponse> {
  const channel = acpChannel(client, session, deps.clientCapabilities, deps.log);
  const outcome = await runPrompt(
    {
      runtime: deps.runtime,
      log: deps.log,
      ...(deps.fork ? { fork: deps.fork } : {}),
      frontEndSteps: FRONT_END_STEPS,
      externalAgents: (sessionId) => acpChildAgents((error, request) => toRequestError(error, { ...request, sessionId }, deps.log)),
    },
    session,
    promptInput(params, client, session, deps.log),
    channel,
    requestSignal,
  );
  return promptResponse(outcome);
}

/** The ACP prompt in the app's terms. */
function promptInput(params: acp.PromptRequest, client: acp.AgentContext, session: LiveSession, log: Logger): PromptInput {
  const blocks = params.prompt;
  const [first] = blocks;
  const queueId = queueIdOf(params._meta);
  const maxTurns = maxTurnsOf(params._meta);
  return {
    ...(maxTurns !== undefined ? { maxTurns } : {}),
    ...(blocks.length === 1 && first?.type === "text" ? { onlyText: first.text } : {}),
    ...(first?.type === "text" ? { firstText: first.text } : {}),
    label: promptLabel(blocks),
    ...(queueId ? { queueId } : {}),
    // A client that named the prompt (`hermes/queueId`) did not show it: it is echoed even when it did not wait.
    echoAlways: queueId !== undefined,
    toParts: (files, firstText) => toUserParts(firstText === undefined || first?.type !== "text" ? blocks : [{ type: "text", text: firstText }, ...blocks.slice(1)], files),
    echo: async (id, messageId) => {
      // One message, named by its queue id; its messageId is the one a load gives the prompt.
      const output = new AcpTurnObserver(client, session, log);
      for (const block of blocks) output.send({ sessionUpdate: "user_message_chunk", content: block, messageId, _meta: { [QUEUE_ID_META]: id } });
      await output.flush();
    },
  };
}

/** The app's outcome as ACP answers it. */
function promptResponse(outcome: PromptOutcome): acp.PromptResponse {
  const { stopReason, turn, command } = outcome;
  if (turn) {
    // `usage` is an unstable PromptResponse field; clients on the stable protocol ignore it. The
    // turn's number (checkpoints are keyed by it): a client that counts its prompts itself cannot
    // tell a skill invocation (a turn) from a command (none); this tells it.
    return { stopReason, usage: promptUsage(turn.usage), _meta: { "hermes/turn": turn.number } };
  }
  // A client that can switch sessions (the VS Code panel) opens a rewound conversation;
  // `hermes/restore` says what became of a restore (the panel's edit-and-resend goes on only after one).
  const meta: Record<string, unknown> = {
    ...(command?.steer ? { "hermes/steer": command.steer } : {}),
    ...(command?.forkedSessionId ? { "hermes/forkedSessionId": command.forkedSessionId } : {}),
    ...(command?.restore ? { "hermes/restore": command.restore } : {}),
  };
  return { stopReason, ...(Object.keys(meta).length ? { _meta: meta } : {}) };
}

/**
 * `_meta["hermes/queueId"]` of a session/prompt: the client's name for a prompt it queued without
 * showing it (the VS Code panel); the echo and the queue list carry it. Anything else is ignored.
 */
function queueIdOf(meta: Record<string, unknown> | null | undefined): string | undefined {
  const id = meta?.[QUEUE_ID_META];
  return isQueueId(id) ? id : undefined;
}

/** A prompt as /queue lists it: its text, and how many attachments came with it. */
function promptLabel(prompt: acp.ContentBlock[]): string {
  const text = prompt.map((block) => (block.type === "text" ? block.text : "")).join(" ").trim();
  const others = prompt.filter((block) => block.type !== "text").length;
  return others ? `${text}${text ? " " : ""}(+${others} attached)` : text;
}
