// Spawns the built `dist/hermes.js acp` over real stdio pipes and drives it with the recording
// ACP client of acp-client.ts (every frame recorded, every session/update validated, fs/* and
// terminal/* served like an editor). For the wire itself: framing, stdout hygiene, exit codes,
// signals, several processes. Core behaviour is tested in process (in-process-agent.ts).
import * as acp from "@agentclientprotocol/sdk";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PassThrough, Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { stringify as toYaml } from "yaml";
import { recordingClient, type AcpPeer, type ClientOptions } from "./acp-client";
import { ndJsonFrames } from "./acp-frame-schema";
import { makeTempDirSync } from "./temp-dirs";

export { agentText, scriptedConfig, sessionUpdates, type AcpPeer, type PermissionPolicy } from "./acp-client";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const HERMES_BIN = path.join(ROOT, "dist", "hermes.js");

export interface HarnessOptions extends ClientOptions {
  /** Written to $HERMES_HOME/config.yaml. */
  config?: unknown;
  env?: Record<string, string>;
  /** An installed `hermes` executable to run instead of this checkout's dist/hermes.js. */
  bin?: string;
  /** The whole command line instead (node and an unpacked tarball's entry, as Zed runs it), run in `cwd`. */
  command?: [string, ...string[]];
  cwd?: string;
}

export interface Harness extends AcpPeer {
  child: ChildProcessWithoutNullStreams;
  stderr(): string;
  /** Resolves once stderr holds `text` (at once if it already does); rejects after `timeoutMs`. */
  waitForStderr(text: string, timeoutMs?: number): Promise<void>;
  /** Lines of stdout that were not JSON-RPC (must stay empty). */
  strayStdout: string[];
  /** Writes raw bytes to the agent's stdin (for malformed-input tests). */
  writeRaw(text: string): void;
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
  const [command, ...args] = options.command ?? (options.bin ? [options.bin, "acp"] : [process.execPath, HERMES_BIN, "acp"]);
  const child = spawn(command, args, { env, cwd: options.cwd, stdio: ["pipe", "pipe", "pipe"] });

  let stderrText = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => (stderrText += chunk));

  const client = recordingClient(options);
  const strayStdout: string[] = [];
  const toSdk = new PassThrough();
  let pendingLine = "";
  child.stdout.on("data", (chunk: Buffer) => {
    pendingLine += chunk.toString("utf8");
    let newline: number;
    while ((newline = pendingLine.indexOf("\n")) >= 0) {
      const line = pendingLine.slice(0, newline);
      pendingLine = pendingLine.slice(newline + 1);
      if (!line.trim()) continue;
      let frame: unknown;
      try {
        frame = JSON.parse(line);
      } catch {
        strayStdout.push(line);
        continue;
      }
      client.recordFrame(frame);
    }
    toSdk.write(chunk);
  });
  child.stdout.on("end", () => toSdk.end());

  // What the client writes is schema-checked on its way to the agent's stdin, before the agent can answer it.
  const splitSent = ndJsonFrames(client.recordSentFrame);
  const splitRaw = ndJsonFrames(client.recordRawFrame);
  const toAgent = new Writable({
    write(chunk: Buffer, _encoding, done) {
      splitSent(chunk.toString("utf8"));
      if (child.stdin.writable) child.stdin.write(chunk, done);
      else done();
    },
    final(done) {
      child.stdin.end();
      done();
    },
  });
  // A dead agent's stdin fails the client's next write, as it did when the SDK wrote to it directly.
  child.stdin.on("error", (error) => toAgent.destroy(error));
  const connection = client.app.connect(
    acp.ndJsonStream(Writable.toWeb(toAgent) as WritableStream<Uint8Array>, Readable.toWeb(toSdk) as ReadableStream<Uint8Array>),
  );
  const peer = client.peer(connection.agent, home);
  return {
    ...peer,
    child,
    strayStdout,
    stderr: () => stderrText,
    waitForStderr: (text, timeoutMs = 20_000) =>
      new Promise<void>((resolve, reject) => {
        if (stderrText.includes(text)) return resolve();
        // Added after the listener that collects stderrText, so each chunk is in it by now.
        const onData = () => {
          if (stderrText.includes(text)) finish();
        };
        const timer = setTimeout(() => finish(new Error(`no "${text}" on stderr within ${timeoutMs} ms`)), timeoutMs);
        function finish(error?: Error) {
          clearTimeout(timer);
          child.stderr.off("data", onData);
          if (error) reject(error);
          else resolve();
        }
        child.stderr.on("data", onData);
      }),
    writeRaw: (text) => {
      splitRaw(text);
      child.stdin.write(text);
    },
    close: async () => {
      peer.terminals.killAll();
      if (child.exitCode !== null || child.signalCode !== null) {
        peer.assertFramesValid();
        return child.exitCode;
      }
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      child.stdin.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      const code = await exited;
      clearTimeout(timer);
      connection.close();
      // Every frame either way must be valid ACP 1.21: the test that produced one that is not fails here.
      peer.assertFramesValid();
      return code;
    },
  };
}
