// The whole agent app in this process, driven over the real protocol: the same
// createAgentApp `hermes acp` serves, connected to the recording SDK client of acp-client.ts
// through an in-memory pipe of newline-delimited JSON (the SDK's ndJsonStream on both ends).
// No build, no child process: config, sessions, the loop, tools and the provider SDKs run
// here, and the provider SDKs talk real HTTP to a scripted model server.
//
// The agent reads $HERMES_HOME and other settings from process.env, so one agent runs at a
// time per test file (node:test runs a file's tests in order; files run in separate processes).
import * as acp from "@agentclientprotocol/sdk";
import * as agentAcp from "@agentclientprotocol/sdk/unstable";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { stringify as toYaml } from "yaml";
import { createAgentApp } from "../../acp-server/acp/agent-app";
import { loadAgentRuntime } from "../../acp-server/runtime/runtime";
import type { Logger } from "../../acp-server/util/log";
import { recordingClient, type AcpPeer, type ClientOptions } from "./acp-client";
import { ndJsonFrames } from "./acp-frame-schema";
import { makeTempDirSync } from "./temp-dirs";

export { agentText, replyTo, scriptedConfig, sessionUpdates, type PermissionPolicy } from "./acp-client";

export async function makeTempDir(prefix = "hermes-core-"): Promise<string> {
  return makeTempDirSync(prefix);
}

export interface InProcessOptions extends ClientOptions {
  /** Written to $HERMES_HOME/config.yaml. */
  config?: unknown;
  /**
   * Set in process.env while the agent runs (restored by close()). HERMES_HOME here runs the
   * agent on that existing home, config.yaml as it is (`config` is not written): a second agent
   * on a running agent's home stands for another process on the same machine.
   */
  env?: Record<string, string>;
}

export interface LogLine {
  level: "debug" | "info" | "warn" | "error";
  message: string;
  fields?: Record<string, unknown>;
}

export interface InProcessAgent extends AcpPeer {
  /** What the agent app logged (its own logger; modules' loggers still go to stderr at error level). */
  logs: LogLine[];
  /** Resolves once the app has logged `message` `count` times (some ends are no protocol event); rejects after timeoutMs. */
  waitForLog(message: string, count?: number, timeoutMs?: number): Promise<void>;
  /** Closes the sessions it opened, then the connection; restores process.env. */
  close(): Promise<void>;
}

/** The home the agents of this process run on, and how many run on it. */
let running: { home: string; agents: number; restoreEnv: () => void } | undefined;

export async function startAgent(options: InProcessOptions = {}): Promise<InProcessAgent> {
  // env.HERMES_HOME: another agent on an existing home ("another process loads the session"),
  // with its config.yaml as it is. Agents share process.env, so all must use the same home.
  const existing = options.env?.HERMES_HOME;
  if (running && existing !== running.home) throw new Error(`an in-process agent on ${running.home} is still running: close it first, or share its home`);
  const home = existing ?? makeTempDirSync("hermes-home-");
  if (!existing && options.config !== undefined) writeFileSync(path.join(home, "config.yaml"), toYaml(options.config));
  if (running) running.agents++;
  else running = { home, agents: 1, restoreEnv: hermeticEnv({ ...options.env, HERMES_HOME: home }) };

  const logs: LogLine[] = [];
  const logWaiters = new Set<() => void>();
  const log = recordingLogger(logs, () => {
    for (const wake of logWaiters) wake();
  });
  const app = createAgentApp({
    version: "0.0.0-test",
    log,
    // stderr at error level: the test's output stays readable; the app's own lines are in `logs`.
    loadRuntime: () => loadAgentRuntime(log, { stderrLevel: "error" }),
  });

  // Two one-way pipes of bytes, each recording its frames as they pass: a frame is recorded (and
  // schema-checked) before the other side can read it, so a request is always seen before its answer.
  const client = recordingClient(options);
  const toAgent = recordingPipe(client.recordSentFrame);
  const toClient = recordingPipe(client.recordFrame);
  const agentConnection = app.connect(agentAcp.ndJsonStream(toClient.writable, toAgent.readable));
  const clientConnection = client.app.connect(acp.ndJsonStream(toAgent.writable, toClient.readable));
  const peer = client.peer(clientConnection.agent, home);

  return {
    ...peer,
    logs,
    waitForLog: (message, count = 1, timeoutMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        const wake = () => {
          if (logs.filter((line) => line.message === message).length < count) return;
          cleanup();
          resolve();
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no "${message}" log line (${count} wanted) within ${timeoutMs} ms`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          logWaiters.delete(wake);
        };
        logWaiters.add(wake);
        wake();
      }),
    close: async () => {
      try {
        peer.terminals.killAll();
        // Every session opened sends updates (its commands at least) or answers with its id;
        // closing them stops their MCP servers and shells. Unknown or closed ones just refuse.
        const sessions = new Set([...peer.updates.map((n) => n.sessionId), ...peer.frames.map((f) => f.result?.sessionId).filter(Boolean)]);
        for (const sessionId of sessions) await peer.agent.request(acp.methods.agent.session.close, { sessionId }).catch(() => {});
        clientConnection.close();
        agentConnection.close();
      } finally {
        if (running && --running.agents === 0) {
          running.restoreEnv();
          running = undefined;
        }
      }
      // Every frame either way must be valid ACP 1.21: the test that produced one that is not fails here.
      peer.assertFramesValid();
    },
  };
}

/** A pipe of newline-delimited JSON that hands each whole frame to `record` as it passes. */
function recordingPipe(record: (frame: unknown) => void): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const split = ndJsonFrames(record);
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      split(decoder.decode(chunk, { stream: true }));
      controller.enqueue(chunk);
    },
  });
}

/** Like the spawned harness's environment: no Hermes settings or API keys from the shell. */
function hermeticEnv(set: Record<string, string>): () => void {
  const saved = new Map<string, string | undefined>();
  const change = (key: string, value: string | undefined) => {
    if (!saved.has(key)) saved.set(key, process.env[key]);
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  };
  for (const key of Object.keys(process.env)) if (key.startsWith("HERMES_") || key.endsWith("_API_KEY")) change(key, undefined);
  for (const [key, value] of Object.entries(set)) change(key, value);
  return () => {
    for (const [key, value] of saved) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
}

function recordingLogger(lines: LogLine[], logged: () => void): Logger {
  const at = (level: LogLine["level"]) => (message: string, fields?: Record<string, unknown>) => {
    lines.push({ level, message, ...(fields ? { fields } : {}) });
    logged();
    if (level === "error") process.stderr.write(`[agent error] ${message}\n`);
  };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}
