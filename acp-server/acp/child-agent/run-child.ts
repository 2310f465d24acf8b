// One task on an external ACP agent (Claude Code, Gemini CLI, Codex, another Hermes), with
// Hermes as its client: initialize → session/new (the task's folder, the parent session's MCP
// servers) → session/prompt (goal and context). Its updates stream into the parent's card, its
// permission requests go to the user, its fs/* and terminal/* are served inside the folder.
// A crash, a silence longer than the idle timeout, or a failed start end the task as failed;
// cancelling sends session/cancel and kills the process group after a grace period.
import * as acp from "@agentclientprotocol/sdk/unstable";
import { UserRejection } from "../../agent/turn-io";
import type { Logger } from "../../util/log";
import type { TokenUsage } from "../../providers/types";
import { AgentProcess } from "../../delegate/child-process";
import { childEnv } from "../../security/child-env";
import { ChildServices } from "./child-services";
import type { ExternalAgentOutcome, ExternalAgentTask, RunExternalAgent } from "../../delegate/external-agent";
import { childAsk, childOutcome } from "./child-permissions";
import { ChildTranscript } from "./transcript";
import { AgentError } from "../../util/agent-error";
import { DEFAULT_MAX_FRAME_MB } from "../../config/frame-limit";
import { MB } from "../../util/ndjson-lines";
import { boundedNdJsonStream } from "../../util/ndjson-stream";
import type { McpServerSpec } from "../../mcp/server-spec";

/** How long a cancelled child may take to stop before its process group is killed. */
export const CANCEL_GRACE_MS = 2_000;

/** An external task as the ACP client runs it: the child's requests are served by `services`, and failures answered by `answerError`. */
export interface AcpChildSpec extends Omit<ExternalAgentTask, "files" | "shell"> {
  services: ChildServices;
  /** Turns a failure of serving one of the child's requests into the JSON-RPC error it gets. */
  answerError: ChildErrorAnswer;
}

/** The edge's error mapping (acp/error-map.ts toRequestError) for a child's requests. */
export type ChildErrorAnswer = (error: unknown, request: { method: string; signal: AbortSignal }) => Error;

export type ChildOutcome = ExternalAgentOutcome;

/** Delegation's external agents, as ACP children of this process. */
export function acpChildAgents(answerError: ChildErrorAnswer): RunExternalAgent {
  return ({ files, shell, ...task }) => runAcpChild({ ...task, services: new ChildServices(task.cwd, files, shell), answerError });
}

/** The child crashed, went quiet past its idle timeout, or could not be driven. */
class ChildFailure extends AgentError<"internal"> {
  constructor(message: string) {
    super("internal", message, {});
  }
}
class ChildCancelled extends AgentError<"cancelled"> {
  constructor(message: string) {
    super("cancelled", message, {});
  }
}

export async function runAcpChild(spec: AcpChildSpec): Promise<ChildOutcome> {
  const { agent, label, services, log } = spec;
  const transcript = new ChildTranscript(spec.progress);
  // The allowlist, the agent's own credentials by name, then its configured env.
  const env = { ...childEnv(process.env, { passthrough: agent.envPassthrough }), ...agent.env };

  const proc = AgentProcess.spawn({ command: agent.resolved, args: agent.args, env, cwd: spec.cwd });
  log.info("child agent started", { agent: agent.name, pid: proc.pid, cwd: spec.cwd });

  // Activity: any bytes from the child, and any request of its we are still serving (a
  // permission prompt may wait for the user for minutes; that is not the child hanging).
  let lastActivity = Date.now();
  let serving = 0;
  const touch = () => (lastActivity = Date.now());
  proc.child.stdout?.on("data", touch);

  const stop = new AbortController();
  const childSignal = AbortSignal.any([spec.signal, stop.signal]);
  const serve =
    <P, R>(work: (params: P) => Promise<R>) =>
    async ({ params, method, signal }: { params: P; method: string; signal: AbortSignal }): Promise<R> => {
      serving++;
      touch();
      try {
        return await work(params);
      } catch (error) {
        throw spec.answerError(error, { method, signal });
      } finally {
        serving--;
        touch();
      }
    };

  let sessionId: string | undefined;
  const app = acp
    .client({ name: "hermes" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      if (!sessionId || params.sessionId === sessionId) transcript.update(params.update);
    })
    .onRequest(
      acp.methods.client.session.requestPermission,
      serve(async (params: acp.RequestPermissionRequest) => {
        const { call, ask } = childAsk(params);
        const answer = await spec.ask(call, ask, childSignal).catch((error: unknown) => {
          if (error instanceof UserRejection) return error;
          throw error;
        });
        // A rejection with the user's words goes to the child the way the editor sent it.
        if (answer instanceof UserRejection) {
          return { ...childOutcome(answer.always ? "reject_always" : "reject", params.options), _meta: { "hermes/reason": answer.reason } };
        }
        log.info("child permission answered", { agent: agent.name, title: call.title, answer });
        return childOutcome(answer, params.options);
      }),
    )
    .onRequest(acp.methods.client.fs.readTextFile, serve((params: acp.ReadTextFileRequest) => services.readTextFile(params)))
    .onRequest(acp.methods.client.fs.writeTextFile, serve((params: acp.WriteTextFileRequest) => services.writeTextFile(params)))
    .onRequest(acp.methods.client.terminal.create, serve((params: acp.CreateTerminalRequest) => services.createTerminal(params)))
    .onRequest(acp.methods.client.terminal.output, serve((params: acp.TerminalOutputRequest) => services.terminalOutput(params)))
    .onRequest(acp.methods.client.terminal.waitForExit, serve((params: acp.WaitForTerminalExitRequest) => services.waitForExit(params)))
    .onRequest(acp.methods.client.terminal.kill, serve((params: acp.KillTerminalRequest) => services.killTerminal(params)))
    .onRequest(acp.methods.client.terminal.release, serve((params: acp.ReleaseTerminalRequest) => services.releaseTerminal(params)));

  // Rejects when the child dies, goes silent, or the parent cancels.
  let ticker: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const watchdog = new Promise<never>((_, reject) => {
    void proc.exited.then((how) => reject(new ChildFailure(describeExit(proc, label, how))));
    ticker = setInterval(
      () => {
        if (serving === 0 && Date.now() - lastActivity > spec.idleTimeoutMs) {
          reject(new ChildFailure(`${label} sent nothing for ${Math.round(spec.idleTimeoutMs / 100) / 10} s (delegation.idle_timeout); stopped it`));
        }
      },
      Math.min(1_000, Math.max(50, spec.idleTimeoutMs / 4)),
    );
    onAbort = () => reject(new ChildCancelled("cancelled"));
    if (spec.signal.aborted) onAbort();
    else spec.signal.addEventListener("abort", onAbort, { once: true });
  });
  watchdog.catch(() => {}); // expected: the watchdog's rejection is read through guarded(); this only keeps it from being unhandled before then
  const guarded = <T>(work: Promise<T>): Promise<T> => Promise.race([work, watchdog]);

  // Bounded: a hostile or broken child cannot exhaust memory with a huge frame or an endless line.
  const stream = boundedNdJsonStream<acp.AnyMessage>(proc.child.stdin!, proc.child.stdout!, { maxFrameBytes: DEFAULT_MAX_FRAME_MB * MB, warn: (message, details) => log.warn(`child agent ${agent.name}: ${message}`, details) });
  const connection = app.connect(stream);
  const client = connection.agent;
  let prompt: Promise<acp.PromptResponse> | undefined;
  try {
    await guarded(proc.started);
    await guarded(
      client.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
        clientInfo: { name: "hermes", title: "Hermes", version: spec.version },
      }),
    );
    const session = await guarded(client.request(acp.methods.agent.session.new, { cwd: spec.cwd, mcpServers: spec.mcpServers.map(acpMcpServer) }));
    sessionId = session.sessionId;
    spec.progress.started();
    prompt = client.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: spec.prompt }] });
    prompt.catch(() => {}); // expected: the prompt's rejection is read through guarded(prompt) just below; this only keeps it from being unhandled
    const response = await guarded(prompt);
    const cancelled = response.stopReason === "cancelled";
    const usage = childUsage(response, transcript.costUsd);
    return { status: cancelled ? "cancelled" : "completed", answer: transcript.answer, toolCalls: transcript.toolCalls, ...(cancelled ? { error: "the child cancelled its turn" } : {}), ...(usage ? { usage } : {}) };
  } catch (error) {
    if (error instanceof ChildCancelled) {
      await cancelChild(client, sessionId, prompt, proc, log, agent.name);
      return { status: "cancelled", answer: transcript.answer, toolCalls: transcript.toolCalls, error: "cancelled by the user" };
    }
    // A dying child closes the connection a moment before its exit is reported: name the exit.
    const exit = error instanceof ChildFailure ? undefined : await exitReason(proc, label);
    const reason = error instanceof ChildFailure ? error.message : (exit ?? `${label}: ${errorText(error)}`);
    log.warn("child agent failed", { agent: agent.name, reason });
    return { status: "failed", answer: transcript.answer, toolCalls: transcript.toolCalls, error: reason };
  } finally {
    stop.abort();
    clearInterval(ticker);
    if (onAbort) spec.signal.removeEventListener("abort", onAbort);
    await services.releaseAll();
    await proc.stop(CANCEL_GRACE_MS);
    connection.close();
    log.info("child agent stopped", { agent: agent.name, pid: proc.pid, how: proc.exitDescription });
  }
}

/** The child's token counts from its prompt response (an unstable field: absent from most agents). */
function childUsage(response: acp.PromptResponse, costUsd: number | undefined): ChildOutcome["usage"] {
  const reported = (response as { usage?: { inputTokens?: unknown; outputTokens?: unknown; cachedReadTokens?: unknown; cachedWriteTokens?: unknown; thoughtTokens?: unknown } | null }).usage;
  const count = (value: unknown) => (typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined);
  const inputTokens = count(reported?.inputTokens);
  const outputTokens = count(reported?.outputTokens);
  if (inputTokens === undefined || outputTokens === undefined) return costUsd === undefined ? undefined : { usage: { inputTokens: 0, outputTokens: 0 }, costUsd };
  const usage: TokenUsage = { inputTokens, outputTokens, cacheReadTokens: count(reported?.cachedReadTokens), cacheWriteTokens: count(reported?.cachedWriteTokens), reasoningTokens: count(reported?.thoughtTokens) };
  return { usage, ...(costUsd === undefined ? {} : { costUsd }) };
}

/** session/cancel, then up to CANCEL_GRACE_MS for the turn to end, then the process group is killed. */
async function cancelChild(client: acp.ClientContext, sessionId: string | undefined, prompt: Promise<unknown> | undefined, proc: AgentProcess, log: Logger, name: string): Promise<void> {
  if (sessionId && proc.running) {
    // A cancel that cannot be sent is covered by the grace period and the kill below; logged for the record.
    client.notify(acp.methods.agent.session.cancel, { sessionId }).catch((error: unknown) => log.debug("could not send session/cancel to the child agent", { agent: name, error }));
    const ended = await Promise.race([
      (prompt ?? Promise.resolve()).then(
        () => true,
        () => true,
      ),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), CANCEL_GRACE_MS)),
    ]);
    if (ended) return;
    log.warn("child agent did not stop after session/cancel; killing it", { agent: name, pid: proc.pid });
  }
  await proc.kill();
}

/** An error the child answered with, its details included (JSON-RPC `data`). */
function errorText(error: unknown): string {
  const message = (error as Error)?.message ?? String(error);
  const data = (error as { data?: unknown })?.data;
  if (data === undefined || data === null) return message;
  const details = typeof data === "string" ? data : JSON.stringify(data);
  return `${message}: ${details.length > 500 ? `${details.slice(0, 500)}…` : details}`;
}

/** Why the child ended, if it ends within a moment. */
async function exitReason(proc: AgentProcess, label: string): Promise<string | undefined> {
  const how = await Promise.race([proc.exited, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 1_000))]);
  return how === undefined ? undefined : describeExit(proc, label, how);
}

function describeExit(proc: AgentProcess, label: string, how: string): string {
  const stderr = proc.stderrTail();
  return `${label} ${/ENOENT|EACCES/.test(how) ? `could not start: ${how}` : `exited (${how})`}${stderr ? `: ${lastLines(stderr)}` : ""}`;
}

function lastLines(text: string): string {
  return text.split("\n").slice(-5).join("\n");
}

/** A client-named MCP server back in ACP's shape (env and headers as name/value lists), for the child's session/new. */
function acpMcpServer(spec: McpServerSpec): acp.McpServer {
  const pairs = (record: Record<string, string>) => Object.entries(record).map(([name, value]) => ({ name, value }));
  const { transport } = spec;
  if (transport.kind === "stdio") return { name: spec.name, command: transport.command, args: transport.args, env: pairs(transport.env) };
  return { type: transport.kind, name: spec.name, url: transport.url, headers: pairs(transport.headers) };
}
