// Spawns the built `dist/hermes.js acp` over real stdio pipes and drives it with an ACP
// client built on the SDK. Records every raw frame the agent wrote, validates every
// session/update against the protocol's own zod schema, and can serve fs/* and
// terminal/* like an editor does (recording the calls).
import * as acp from "@agentclientprotocol/sdk";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PassThrough, Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { stringify as toYaml } from "yaml";
import { zSessionNotification } from "../../node_modules/@agentclientprotocol/sdk/dist/v1/schema/zod.gen.js";
import { EditorTerminals } from "./editor-terminals";
import { makeTempDirSync } from "./temp-dirs";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const HERMES_BIN = path.join(ROOT, "dist", "hermes.js");

/** A function may answer with an option id, "cancelled", or a whole response (e.g. with `_meta`). */
export type PermissionPolicy = "allow" | "allow_always" | "reject" | ((request: acp.RequestPermissionRequest) => string | acp.RequestPermissionResponse);

export interface HarnessOptions {
  /** Written to $HERMES_HOME/config.yaml. */
  config?: unknown;
  env?: Record<string, string>;
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
  /** More client capabilities to advertise in initialize (e.g. `session: {compaction: {}}`). */
  clientCapabilities?: Record<string, unknown>;
  /** An installed `hermes` executable to run instead of this checkout's dist/hermes.js. */
  bin?: string;
}

export interface Harness {
  agent: acp.ClientContext;
  child: ChildProcessWithoutNullStreams;
  home: string;
  /** Every JSON-RPC message the agent wrote to stdout, parsed, in order. */
  frames: any[];
  /** session/update notifications received (validated). */
  updates: acp.SessionNotification[];
  /** Updates that failed the protocol schema (must stay empty). */
  invalidUpdates: { update: unknown; error: string }[];
  permissionRequests: acp.RequestPermissionRequest[];
  fsCalls: { method: string; path: string }[];
  terminals: EditorTerminals;
  stderr(): string;
  /** Lines of stdout that were not JSON-RPC (must stay empty). */
  strayStdout: string[];
  initialize(): Promise<acp.InitializeResponse>;
  newSession(cwd: string): Promise<acp.NewSessionResponse>;
  prompt(sessionId: string, text: string | acp.ContentBlock[]): Promise<acp.PromptResponse>;
  /** Writes raw bytes to the agent's stdin (for malformed-input tests). */
  writeRaw(text: string): void;
  waitForFrame(predicate: (frame: any) => boolean, timeoutMs?: number): Promise<any>;
  waitForUpdate(predicate: (update: acp.SessionUpdate) => boolean, timeoutMs?: number): Promise<acp.SessionUpdate>;
  close(): Promise<number | null>;
}

export async function makeTempDir(prefix = "hermes-it-"): Promise<string> {
  return makeTempDirSync(prefix);
}

export async function startHermes(options: HarnessOptions = {}): Promise<Harness> {
  const home = await makeTempDir("hermes-home-");
  await mkdir(home, { recursive: true });
  if (options.config !== undefined) writeFileSync(path.join(home, "config.yaml"), toYaml(options.config));

  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    // Keep the test hermetic: no real keys or Hermes settings from the developer's shell.
    if (value !== undefined && !key.startsWith("HERMES_") && !key.endsWith("_API_KEY")) env[key] = value;
  }
  Object.assign(env, { HERMES_HOME: home }, options.env);
  const [command, args] = options.bin ? [options.bin, ["acp"]] : [process.execPath, [HERMES_BIN, "acp"]];
  const child = spawn(command, args, { env, stdio: ["pipe", "pipe", "pipe"] });

  let stderrText = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => (stderrText += chunk));

  const frames: any[] = [];
  const strayStdout: string[] = [];
  const frameWaiters: { predicate: (frame: any) => boolean; resolve: (frame: any) => void }[] = [];
  const toSdk = new PassThrough();
  let pendingLine = "";
  child.stdout.on("data", (chunk: Buffer) => {
    pendingLine += chunk.toString("utf8");
    let newline: number;
    while ((newline = pendingLine.indexOf("\n")) >= 0) {
      const line = pendingLine.slice(0, newline);
      pendingLine = pendingLine.slice(newline + 1);
      if (!line.trim()) continue;
      try {
        const frame = JSON.parse(line);
        frames.push(frame);
        for (const waiter of [...frameWaiters]) {
          if (waiter.predicate(frame)) {
            frameWaiters.splice(frameWaiters.indexOf(waiter), 1);
            waiter.resolve(frame);
          }
        }
      } catch {
        strayStdout.push(line);
      }
    }
    toSdk.write(chunk);
  });
  child.stdout.on("end", () => toSdk.end());

  const updates: acp.SessionNotification[] = [];
  const invalidUpdates: { update: unknown; error: string }[] = [];
  const permissionRequests: acp.RequestPermissionRequest[] = [];
  const fsCalls: { method: string; path: string }[] = [];
  const terminals = new EditorTerminals();

  let client = acp.client({ name: "hermes-test-client" }).onNotification(acp.methods.client.session.update, ({ params }) => {
    const check = zSessionNotification.safeParse(params);
    if (!check.success) invalidUpdates.push({ update: params, error: check.error.message });
    updates.push(params);
  });
  client = client.onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
    permissionRequests.push(params);
    return answerPermission(options.permission ?? "allow", params);
  });
  if (options.serveFs) {
    client = client
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
    client = client
      .onRequest(acp.methods.client.terminal.create, ({ params }) => terminals.create(params))
      .onRequest(acp.methods.client.terminal.output, ({ params }) => terminals.output(params.terminalId))
      .onRequest(acp.methods.client.terminal.waitForExit, ({ params }) => terminals.waitForExit(params.terminalId))
      .onRequest(acp.methods.client.terminal.kill, ({ params }) => terminals.kill(params.terminalId))
      .onRequest(acp.methods.client.terminal.release, ({ params }) => terminals.release(params.terminalId));
  }

  const connection = client.connect(
    acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(toSdk) as ReadableStream<Uint8Array>),
  );
  const agent = connection.agent;

  const harness: Harness = {
    agent,
    child,
    home,
    frames,
    updates,
    invalidUpdates,
    permissionRequests,
    fsCalls,
    terminals,
    strayStdout,
    stderr: () => stderrText,
    initialize: () =>
      agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {
          fs: { readTextFile: !!options.serveFs, writeTextFile: !!options.serveFs },
          terminal: !!options.serveTerminal,
          ...options.clientCapabilities,
        },
        clientInfo: { name: "hermes-test-client", version: "1.0.0" },
      }),
    newSession: (cwd) => agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] }),
    prompt: (sessionId, text) =>
      agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: typeof text === "string" ? [{ type: "text", text }] : text }),
    writeRaw: (text) => child.stdin.write(text),
    waitForFrame: (predicate, timeoutMs = 10_000) => {
      const found = frames.find(predicate);
      if (found) return Promise.resolve(found);
      return withTimeout(new Promise((resolve) => frameWaiters.push({ predicate, resolve })), timeoutMs, "frame");
    },
    waitForUpdate: async (predicate, timeoutMs = 10_000) => {
      const frame = await harness.waitForFrame((f) => f.method === "session/update" && predicate(f.params.update), timeoutMs);
      return frame.params.update;
    },
    close: async () => {
      terminals.killAll();
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      child.stdin.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      const code = await exited;
      clearTimeout(timer);
      connection.close();
      return code;
    },
  };
  return harness;
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
    model: { provider: "custom", name: "fake-model", base_url: url, api_key: "sk-test-not-a-real-key", api_mode: "chat_completions" },
    // A background title request would take replies scripted for the test; title tests turn it on.
    sessions: { auto_title: false },
    ...extra,
  };
}

/** Updates of one session, in order, just the `update` payloads. */
export function sessionUpdates(harness: Harness, sessionId: string): acp.SessionUpdate[] {
  return harness.updates.filter((n) => n.sessionId === sessionId).map((n) => n.update);
}

/** The agent's reply text in one session, all chunks joined. */
export function agentText(harness: Harness, sessionId: string): string {
  return sessionUpdates(harness, sessionId)
    .map((u) => (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? u.content.text : ""))
    .join("");
}
