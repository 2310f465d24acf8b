// The editor side every ACP test drives the agent with, whatever carries the frames (the
// spawned process's stdio in acp-harness.ts, an in-memory pipe in in-process-agent.ts): an
// SDK client that records every frame the agent wrote, validates each session/update against
// the protocol's own zod schema, answers permission requests by policy, and can serve fs/* and
// terminal/* like an editor does (recording the calls).
import * as acp from "@agentclientprotocol/sdk";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { zSessionNotification } from "../../node_modules/@agentclientprotocol/sdk/dist/v1/schema/zod.gen.js";
import { FrameValidator, type InvalidFrame } from "./acp-frame-schema";
import { EditorTerminals } from "./editor-terminals";

/** A function may answer with an option id, "cancelled", or a whole response (e.g. with `_meta`). */
export type PermissionPolicy = "allow" | "allow_always" | "reject" | ((request: acp.RequestPermissionRequest) => string | acp.RequestPermissionResponse);

export interface ClientOptions {
  /** Serve fs/read_text_file and fs/write_text_file like an editor. */
  serveFs?: boolean;
  /** Unsaved editor buffers by absolute path: fs/read_text_file serves these over the disk. */
  buffers?: Record<string, string>;
  /** Refuses fs/read_text_file for a path by throwing this error (an editor's denial). */
  readError?: (path: string) => Error | undefined;
  /** Overrides the answer to fs/write_text_file after the write (e.g. a partial review's `_meta`). */
  writeAnswer?: (params: acp.WriteTextFileRequest) => acp.WriteTextFileResponse;
  /** Serve terminal/* like an editor. */
  serveTerminal?: boolean;
  permission?: PermissionPolicy;
  /** Answers elicitation/create, and advertises `elicitation: {form: {}}` (absent: no elicitation support). */
  elicitation?: (request: acp.CreateElicitationRequest) => acp.CreateElicitationResponse | Promise<acp.CreateElicitationResponse>;
  /** More client capabilities to advertise in initialize (e.g. `session: {compaction: {}}`). */
  clientCapabilities?: Record<string, unknown>;
}

/** What a test sees of the agent, however it runs. */
export interface AcpPeer {
  agent: acp.ClientContext;
  /** $HERMES_HOME of this agent. */
  home: string;
  /** Every JSON-RPC message the agent wrote, parsed, in order. */
  frames: any[];
  /** session/update notifications received (validated). */
  updates: acp.SessionNotification[];
  /** Updates that failed the protocol schema (must stay empty). */
  invalidUpdates: { update: unknown; error: string }[];
  /** Frames either way that failed the 1.21 JSON schema (must stay empty: close() fails the test otherwise). */
  invalidFrames: InvalidFrame[];
  /** Throws with every frame that failed the 1.21 JSON schema. */
  assertFramesValid(): void;
  permissionRequests: acp.RequestPermissionRequest[];
  elicitationRequests: acp.CreateElicitationRequest[];
  fsCalls: { method: string; path: string }[];
  terminals: EditorTerminals;
  initialize(): Promise<acp.InitializeResponse>;
  newSession(cwd: string): Promise<acp.NewSessionResponse>;
  prompt(sessionId: string, text: string | acp.ContentBlock[]): Promise<acp.PromptResponse>;
  waitForFrame(predicate: (frame: any) => boolean, timeoutMs?: number): Promise<any>;
  waitForUpdate(predicate: (update: acp.SessionUpdate) => boolean, timeoutMs?: number): Promise<acp.SessionUpdate>;
}

/** The recording client and the parts of a peer that do not depend on the transport. */
export interface RecordingClient {
  app: acp.ClientApp;
  /** Call with each frame the agent wrote, in order (the transport parses them). */
  recordFrame: (frame: any) => void;
  /** Call with each frame the client writes, before the agent can read it (validated only). */
  recordSentFrame: (frame: any) => void;
  /** Call with each frame a test writes raw (not judged: malformed on purpose, maybe). */
  recordRawFrame: (frame: any) => void;
  /** The peer for a connected client. */
  peer: (agent: acp.ClientContext, home: string) => AcpPeer;
}

export function recordingClient(options: ClientOptions, name = "hermes-test-client"): RecordingClient {
  const frames: any[] = [];
  const frameWaiters: { predicate: (frame: any) => boolean; resolve: (frame: any) => void }[] = [];
  const updates: acp.SessionNotification[] = [];
  // session/update frames come in raw (recordFrame) before the SDK hands them to the handler that
  // fills `updates`: waitForUpdate resolves once its frame's update has reached `updates` too.
  let updateFramesSeen = 0;
  let updatesDelivered = 0;
  const deliveryWaiters: { count: number; resolve: () => void }[] = [];
  const updateFrameNumber = new WeakMap<object, number>();
  const invalidUpdates: { update: unknown; error: string }[] = [];
  const permissionRequests: acp.RequestPermissionRequest[] = [];
  const elicitationRequests: acp.CreateElicitationRequest[] = [];
  const fsCalls: { method: string; path: string }[] = [];
  const terminals = new EditorTerminals();
  const frameSchema = new FrameValidator();

  let app = acp
    .client({ name })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      const check = zSessionNotification.safeParse(params);
      if (!check.success) invalidUpdates.push({ update: params, error: check.error.message });
      updates.push(params);
      updatesDelivered++;
      for (const waiter of [...deliveryWaiters]) {
        if (updatesDelivered >= waiter.count) {
          deliveryWaiters.splice(deliveryWaiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      permissionRequests.push(params);
      return answerPermission(options.permission ?? "allow", params);
    });
  const elicitation = options.elicitation;
  if (elicitation) {
    app = app.onRequest(acp.methods.client.elicitation.create, ({ params }) => {
      elicitationRequests.push(params);
      return elicitation(params);
    });
    // URL-mode flows end with the agent's notice (recorded in `frames`).
    app = app.onNotification(acp.methods.client.elicitation.complete, () => {});
  }
  if (options.serveFs) {
    app = app
      .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
        fsCalls.push({ method: "read", path: params.path });
        const refusal = options.readError?.(params.path);
        if (refusal) throw refusal;
        let content = options.buffers?.[params.path] ?? readFileSync(params.path, "utf8");
        if (params.line || params.limit) {
          const lines = content.split("\n");
          const start = (params.line ?? 1) - 1;
          content = lines.slice(start, params.limit ? start + params.limit : undefined).join("\n");
        }
        return { content };
      })
      .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
        fsCalls.push({ method: "write", path: params.path });
        mkdirSync(path.dirname(params.path), { recursive: true });
        writeFileSync(params.path, params.content);
        return options.writeAnswer?.(params) ?? {};
      });
  }
  if (options.serveTerminal) {
    app = app
      .onRequest(acp.methods.client.terminal.create, ({ params }) => terminals.create(params))
      .onRequest(acp.methods.client.terminal.output, ({ params }) => terminals.output(params.terminalId))
      .onRequest(acp.methods.client.terminal.waitForExit, ({ params }) => terminals.waitForExit(params.terminalId))
      .onRequest(acp.methods.client.terminal.kill, ({ params }) => terminals.kill(params.terminalId))
      .onRequest(acp.methods.client.terminal.release, ({ params }) => terminals.release(params.terminalId));
  }

  const recordFrame = (frame: any) => {
    frameSchema.check("agent→client", frame);
    frames.push(frame);
    if (frame?.method === acp.methods.client.session.update) updateFrameNumber.set(frame, ++updateFramesSeen);
    for (const waiter of [...frameWaiters]) {
      if (waiter.predicate(frame)) {
        frameWaiters.splice(frameWaiters.indexOf(waiter), 1);
        waiter.resolve(frame);
      }
    }
  };

  const peer = (agent: acp.ClientContext, home: string): AcpPeer => {
    const self: AcpPeer = {
      agent,
      home,
      frames,
      updates,
      invalidUpdates,
      invalidFrames: frameSchema.invalid,
      assertFramesValid: () => {
        if (frameSchema.invalid.length) throw new Error(`ACP frames invalid against schema 1.21:\n${frameSchema.report()}`);
      },
      permissionRequests,
      elicitationRequests,
      fsCalls,
      terminals,
      initialize: () =>
        agent.request(acp.methods.agent.initialize, {
          protocolVersion: acp.PROTOCOL_VERSION,
          clientCapabilities: {
            fs: { readTextFile: !!options.serveFs, writeTextFile: !!options.serveFs },
            terminal: !!options.serveTerminal,
            ...(options.elicitation ? { elicitation: { form: {} } } : {}),
            ...options.clientCapabilities,
          },
          clientInfo: { name, version: "1.0.0" },
        }),
      newSession: (cwd) => agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] }),
      prompt: (sessionId, text) =>
        agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: typeof text === "string" ? [{ type: "text", text }] : text }),
      waitForFrame: (predicate, timeoutMs = 10_000) => {
        const found = frames.find(predicate);
        if (found) return Promise.resolve(found);
        return withTimeout(new Promise((resolve) => frameWaiters.push({ predicate, resolve })), timeoutMs, "frame");
      },
      waitForUpdate: async (predicate, timeoutMs = 10_000) => {
        const frame = await self.waitForFrame((f) => f.method === "session/update" && predicate(f.params.update), timeoutMs);
        const number = updateFrameNumber.get(frame) ?? 0;
        if (updatesDelivered < number) {
          await withTimeout(new Promise<void>((resolve) => deliveryWaiters.push({ count: number, resolve })), timeoutMs, "the update to reach the client");
        }
        return frame.params.update;
      },
    };
    return self;
  };

  const recordSentFrame = (frame: any) => frameSchema.check("client→agent", frame);
  const recordRawFrame = (frame: any) => frameSchema.noteRaw("client→agent", frame);
  return { app, recordFrame, recordSentFrame, recordRawFrame, peer };
}

function answerPermission(policy: PermissionPolicy, request: acp.RequestPermissionRequest): acp.RequestPermissionResponse {
  const choice =
    typeof policy === "function"
      ? policy(request)
      : request.options.find((o) => o.kind === (policy === "reject" ? "reject_once" : policy === "allow" ? "allow_once" : "allow_always"))?.optionId;
  if (typeof choice === "object") return choice;
  if (!choice || choice === "cancelled") return { outcome: { outcome: "cancelled" } };
  return { outcome: { outcome: "selected", optionId: choice } };
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error) => (clearTimeout(timer), reject(error)),
    );
  });
}

/** Config for a scripted model at `url`. */
export function scriptedConfig(url: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    // `vision`: the scripted model takes images, as the tests that send some expect (an unknown name would not).
    model: { provider: "custom", name: "fake-model", base_url: url, api_key: "sk-test-not-a-real-key", api_mode: "chat_completions", vision: true },
    // A background title request would take replies scripted for the test; title tests turn it on.
    sessions: { auto_title: false },
    // Likewise the learning review after a long turn, the curator's first pass and the first prompt's
    // related-sessions note (it would change requests); the learning tests turn them on.
    learning: { review: "off", curator: "off", session_hint: false },
    ...extra,
  };
}

/** Updates of one session, in order, just the `update` payloads. */
export function sessionUpdates(peer: Pick<AcpPeer, "updates">, sessionId: string): acp.SessionUpdate[] {
  return peer.updates.filter((n) => n.sessionId === sessionId).map((n) => n.update);
}

/** Sends `prompt` in one session and returns the agent's text said in answer to it (what came after). */
export async function replyTo(peer: Pick<AcpPeer, "updates" | "prompt">, sessionId: string, prompt: string): Promise<string> {
  const before = agentText(peer, sessionId).length;
  await peer.prompt(sessionId, prompt);
  return agentText(peer, sessionId).slice(before);
}

/** The agent's reply text in one session, all chunks joined. */
export function agentText(peer: Pick<AcpPeer, "updates">, sessionId: string): string {
  return sessionUpdates(peer, sessionId)
    .map((u) => (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? u.content.text : ""))
    .join("");
}
