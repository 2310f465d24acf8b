// session/prompt: one turn of the agent loop wired to the editor.
import * as acp from "@agentclientprotocol/sdk";
import { runTurn } from "../agent/loop";
import { ModelsExhaustedError } from "../agent/model-call";
import type { TurnHost } from "../agent/turn-io";
import { ProviderError } from "../providers/types";
import "../tools/index";
import { LocalFileAccess } from "../tools/local-files";
import { LocalShellRunner } from "../tools/local-shell";
import type { Logger } from "../util/log";
import type { AcpSession } from "./acp-session";
import type { AgentRuntime } from "./agent-runtime";
import { ClientFileAccess } from "./client-files";
import { ClientShellRunner } from "./client-shell";
import { requestPermission } from "./permission-request";
import { toUserParts } from "./prompt-content";
import { promptUsage, textChunk } from "./updates";
import { AcpTurnObserver } from "./turn-observer";

export interface PromptDeps {
  runtime: AgentRuntime;
  clientCapabilities: acp.ClientCapabilities;
  log: Logger;
}

const localShell = new LocalShellRunner();

export { prepareSystemPrompt } from "../agent/loop";

export async function handlePrompt(
  deps: PromptDeps,
  session: AcpSession,
  params: acp.PromptRequest,
  client: acp.AgentContext,
  requestSignal: AbortSignal,
): Promise<acp.PromptResponse> {
  const { model, loaded } = deps.runtime;
  const observer = new AcpTurnObserver(client, session.agent, deps.log);
  if (!model.ok) {
    // No model: the turn still ends normally, with an answer that says how to fix it.
    const problems = loaded.error ? `${loaded.error}\n\n` : "";
    observer.send(textChunk(`Hermes has no model to talk to.\n\n${problems}${model.reason}`));
    await observer.flush();
    return { stopReason: "end_turn" };
  }

  const controller = session.beginTurn(requestSignal);
  try {
    const host = turnHost(deps, session, client);
    const parts = await toUserParts(params.prompt, host.files);
    const stopReason = await runTurn(
      {
        session: session.agent,
        models: deps.runtime.chainFor(session.agent.modelId),
        host,
        observer,
        signal: controller.signal,
        maxTurns: loaded.config.agent.max_turns,
        maxTokens: model.model.maxTokens,
        temperature: model.model.temperature,
        retryBaseDelayMs: loaded.config.agent.retry_base_delay * 1000,
        log: deps.log,
      },
      parts,
    );
    await observer.flush();
    deps.log.info("turn ended", { sessionId: session.id, stopReason, usage: observer.usageTotals });
    // `usage` is the unstable PromptResponse field; stable clients ignore it.
    return { stopReason, usage: promptUsage(observer.usageTotals) } as acp.PromptResponse;
  } catch (error) {
    if (error instanceof ModelsExhaustedError || error instanceof ProviderError) {
      // Said in the conversation, where the user looks, and as the error the client gets.
      const failure = error instanceof ModelsExhaustedError ? error.last : error;
      const reason = error.message;
      observer.send(textChunk(`\n\n**The model request failed.** ${reason}\n`));
      await observer.flush();
      deps.log.warn("model request failed", { sessionId: session.id, kind: failure.kind, status: failure.status, message: reason });
      throw acp.RequestError.internalError({ kind: failure.kind, status: failure.status }, `Model request failed: ${reason}`);
    }
    await observer.flush();
    deps.log.error("turn failed", { sessionId: session.id, error });
    throw error;
  } finally {
    session.endTurn(controller);
  }
}

function turnHost(deps: PromptDeps, session: AcpSession, client: acp.AgentContext): TurnHost {
  const capabilities = deps.clientCapabilities;
  const fs = capabilities.fs ?? {};
  return {
    files: fs.readTextFile || fs.writeTextFile ? new ClientFileAccess(client, session.id, fs) : new LocalFileAccess(),
    shell: capabilities.terminal ? new ClientShellRunner(client, session.id) : localShell,
    askUser: (call, ask, signal) => requestPermission(client, session.id, call, ask, signal),
  };
}
