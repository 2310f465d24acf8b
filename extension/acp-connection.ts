// The ACP client over the agent child's stdio (SDK 2.4 client API). The editor-side handlers
// (files, terminals, permissions, updates) are passed in, so this file only wires the protocol:
// it logs every frame when tracing is on and every failure always. No vscode import.
import * as acp from "@agentclientprotocol/sdk/unstable";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { DEFAULT_MAX_FRAME_MB } from "../acp-server/config/frame-limit";
import { MB } from "../acp-server/util/ndjson-lines";
import { boundedNdJsonStream } from "../acp-server/util/ndjson-stream";
import { errorMessage, type Logger } from "./log";
import { QUEUE_CAPABILITY, QUEUE_CHANGED_NOTIFICATION } from "../common/queue-wire";
import { SANDBOX_CAPABILITY } from "./terminal-sandbox";

export const CLIENT_INFO = { name: "hermes-vscode", version: typeof HERMES_VERSION === "string" ? HERMES_VERSION : "0.0.0" };
declare const HERMES_VERSION: string | undefined;

/** What the editor serves to the agent. Missing ones are not advertised. */
export interface ClientHandlers {
  update(notification: acp.SessionNotification): void;
  /**
   * Hermes's `_hermes/queue/changed` (the session's waiting prompts, acp-server/acp/queue-methods.ts);
   * advertised as `_meta["hermes/queue"]` when present. Params unchecked: the handler checks them.
   */
  queueChanged?: (params: unknown) => void;
  requestPermission: (params: acp.RequestPermissionRequest, signal: AbortSignal) => Promise<acp.RequestPermissionResponse>;
  /** The agent's questions (form elicitation); advertised as `elicitation: {form: {}}` when present. */
  elicitation?: (params: acp.CreateElicitationRequest, signal: AbortSignal) => Promise<acp.CreateElicitationResponse>;
  /** The modes `elicitation` answers (default: form only). */
  elicitationModes?: { form: Record<string, never>; url?: Record<string, never> };
  fs?: {
    read(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse>;
    write(params: acp.WriteTextFileRequest, signal: AbortSignal): Promise<acp.WriteTextFileResponse>;
  };
  terminal?: {
    create(params: acp.CreateTerminalRequest): Promise<acp.CreateTerminalResponse> | acp.CreateTerminalResponse;
    output(params: acp.TerminalOutputRequest): Promise<acp.TerminalOutputResponse> | acp.TerminalOutputResponse;
    waitForExit(params: acp.WaitForTerminalExitRequest): Promise<acp.WaitForTerminalExitResponse>;
    kill(params: acp.KillTerminalRequest): acp.KillTerminalResponse;
    release(params: acp.ReleaseTerminalRequest): acp.ReleaseTerminalResponse;
  };
}

export interface AgentConnection {
  agent: acp.ClientContext;
  /** Resolves when the stream ends (the child exited or `close` was called). */
  closed: Promise<void>;
  close(): void;
  initialize(): Promise<acp.InitializeResponse>;
}

export interface ConnectionOptions {
  log: Logger;
  /** Read on every frame, so turning `hermes.trace` on applies at once. */
  trace: () => boolean;
  /** The largest frame read from the agent, in MB (default 64, as acp.max_frame_mb). */
  maxFrameMb?: number;
}

export function connectAgent(child: ChildProcessWithoutNullStreams, handlers: ClientHandlers, options: ConnectionOptions): AgentConnection {
  const { log } = options;
  // Every handler failure is logged here, once, then returned to the agent as a JSON-RPC error.
  const logged =
    <P, R>(method: string, handler: (params: P, signal: AbortSignal) => R | Promise<R>) =>
    async ({ params, signal }: { params: P; signal: AbortSignal }): Promise<R> => {
      try {
        return await handler(params, signal);
      } catch (error) {
        log.error(`${method} failed: ${errorMessage(error)}`);
        throw error;
      }
    };

  let app = acp
    .client({ name: CLIENT_INFO.name })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      try {
        handlers.update(params);
      } catch (error) {
        log.error(`session/update handling failed: ${errorMessage(error)}`);
      }
    })
    .onRequest(acp.methods.client.session.requestPermission, logged("session/request_permission", handlers.requestPermission));
  const queueChanged = handlers.queueChanged;
  if (queueChanged) {
    app = app.onNotification(QUEUE_CHANGED_NOTIFICATION, (params: unknown) => params, ({ params }) => {
      try {
        queueChanged(params);
      } catch (error) {
        log.error(`${QUEUE_CHANGED_NOTIFICATION} handling failed: ${errorMessage(error)}`);
      }
    });
  }
  const elicitation = handlers.elicitation;
  if (elicitation) app = app.onRequest(acp.methods.client.elicitation.create, logged("elicitation/create", elicitation));
  // A URL flow's end (a sign-in done): the card was answered when the page opened; nothing more to do.
  if (handlers.elicitationModes?.url) app = app.onNotification(acp.methods.client.elicitation.complete, () => undefined);
  const fs = handlers.fs;
  if (fs) {
    app = app
      .onRequest(acp.methods.client.fs.readTextFile, logged("fs/read_text_file", (p: acp.ReadTextFileRequest) => fs.read(p)))
      .onRequest(acp.methods.client.fs.writeTextFile, logged("fs/write_text_file", (p: acp.WriteTextFileRequest, s) => fs.write(p, s)));
  }
  const terminal = handlers.terminal;
  if (terminal) {
    app = app
      .onRequest(acp.methods.client.terminal.create, logged("terminal/create", (p: acp.CreateTerminalRequest) => terminal.create(p)))
      .onRequest(acp.methods.client.terminal.output, logged("terminal/output", (p: acp.TerminalOutputRequest) => terminal.output(p)))
      .onRequest(acp.methods.client.terminal.waitForExit, logged("terminal/wait_for_exit", (p: acp.WaitForTerminalExitRequest) => terminal.waitForExit(p)))
      .onRequest(acp.methods.client.terminal.kill, logged("terminal/kill", (p: acp.KillTerminalRequest) => terminal.kill(p)))
      .onRequest(acp.methods.client.terminal.release, logged("terminal/release", (p: acp.ReleaseTerminalRequest) => terminal.release(p)));
  }

  // Bounded (util/ndjson-stream.ts): a frame over the limit is skipped in constant memory, and
  // a line that never ends cannot grow the editor's memory, unlike the SDK's ndJsonStream.
  const stream = boundedNdJsonStream<acp.AnyMessage>(child.stdin, child.stdout, {
    maxFrameBytes: (options.maxFrameMb ?? DEFAULT_MAX_FRAME_MB) * MB,
    warn: (message, details) => log.warn(`${message} ${details ? JSON.stringify(details) : ""}`.trim()),
  });
  const connection = app.connect(traced(stream, options));
  // `_meta`: terminal/create commands are wrapped in the sandbox policy Hermes sends (terminal-sandbox.ts);
  // the session's queue is shown, so Hermes tells every change of it.
  const metaEntries = { ...(terminal ? SANDBOX_CAPABILITY : {}), ...(queueChanged ? { [QUEUE_CAPABILITY]: { version: 1 } } : {}) };
  const meta = Object.keys(metaEntries).length > 0 ? metaEntries : undefined;
  return {
    agent: connection.agent,
    closed: connection.closed,
    close: () => connection.close(),
    initialize: () =>
      connection.agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: !!fs, writeTextFile: !!fs }, terminal: !!terminal, ...(elicitation ? { elicitation: handlers.elicitationModes ?? { form: {} } } : {}), ...(meta ? { _meta: meta } : {}) },
        clientInfo: CLIENT_INFO,
      }),
  };
}

type Message = acp.AnyMessage;

/** The same stream, with every message logged on its way (when tracing) and error answers always. */
function traced(stream: acp.Stream, { log, trace }: ConnectionOptions): acp.Stream {
  const tap = (direction: "→" | "←") =>
    new TransformStream<Message, Message>({
      transform(message, controller) {
        // Info, not trace: a LogOutputChannel drops trace lines at its default level, and the
        // user who turned `hermes.trace` on expects to see the traffic without a second switch.
        if (trace()) log.info(`${direction} ${JSON.stringify(message)}`);
        else if ("error" in message && message.error) log.error(`${direction} error response ${JSON.stringify(message)}`);
        controller.enqueue(message);
      },
    });
  const outgoing = tap("→");
  void outgoing.readable.pipeTo(stream.writable).catch((error: unknown) => log.warn(`agent stream closed: ${errorMessage(error)}`));
  return { writable: outgoing.writable, readable: stream.readable.pipeThrough(tap("←")) };
}
