// Shared helpers for the benchmarks: the built agent's path, temp homes, a lean line-based
// ACP client (so the benchmark process itself does as little work as possible), statistics
// and result reporting. Benchmarks print figures; nothing here asserts on timing.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { stringify as toYaml } from "yaml";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** BENCH_DIST=dir measures another build (e.g. main's, for a before/after comparison in one run). */
export const HERMES_BIN = process.env.BENCH_DIST ? path.resolve(process.env.BENCH_DIST, "hermes.js") : path.join(ROOT, "dist", "hermes.js");

/** Builds dist/hermes.js when it is missing (or when BENCH_BUILD=1); warns when it looks stale. */
export function ensureBuilt(): void {
  if (process.env.BENCH_BUILD_CHECKED === "1" && existsSync(HERMES_BIN)) return; // run-all did it
  if (process.env.BENCH_DIST) {
    if (!existsSync(HERMES_BIN)) throw new Error(`BENCH_DIST: no ${HERMES_BIN}`);
    return;
  }
  if (!existsSync(HERMES_BIN) || process.env.BENCH_BUILD === "1") {
    process.stdout.write("building dist/hermes.js (node esbuild.config.mjs)...\n");
    const result = spawnSync(process.execPath, ["esbuild.config.mjs"], { cwd: ROOT, stdio: "inherit" });
    if (result.status !== 0) throw new Error("build failed");
    return;
  }
  const built = statSync(HERMES_BIN).mtimeMs;
  if (newestMtime(path.join(ROOT, "acp-server")) > built) {
    process.stdout.write("note: dist/hermes.js is older than acp-server/ sources; run `npm run build` (or BENCH_BUILD=1) to measure the current code\n");
  }
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** A fresh HERMES_HOME holding config.yaml; removed by the returned cleanup. */
export function makeHome(config: unknown): { home: string; cleanup: () => void } {
  const home = mkdtempSync(path.join(os.tmpdir(), "hermes-bench-home-"));
  writeFileSync(path.join(home, "config.yaml"), toYaml(config));
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

export function makeTempDir(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Config for a chat-completions model at `url` (a dummy URL is fine when no prompt is sent). */
export function modelConfig(url: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    model: { provider: "custom", name: "fake-model", base_url: url, api_key: "sk-bench-not-a-real-key", api_mode: "chat_completions" },
    // Titles would add a model call the scripts do not expect.
    sessions: { auto_title: false },
    ...extra,
  };
}

/** The current environment minus Hermes settings and API keys, plus `overrides`; undefined removes a key. */
export function benchEnv(overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith("HERMES_") && !key.endsWith("_API_KEY")) env[key] = value;
  }
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

export const INITIALIZE_PARAMS = {
  protocolVersion: 1,
  clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
  clientInfo: { name: "hermes-bench", version: "1.0.0" },
};

/**
 * A minimal ACP client over the agent's stdio: newline-delimited JSON-RPC, requests matched
 * by id, session/update notifications counted and dropped, permission requests answered
 * with the first allow option. No schema validation: the benchmark process stays cheap.
 */
export class LineClient {
  readonly child: ChildProcessWithoutNullStreams;
  notifications = 0;
  stderr = "";
  /** stdout lines that were not JSON (the agent itself must never write any). */
  readonly strayStdout: string[] = [];
  private nextId = 0;
  private buffer = "";
  private readonly pending = new Map<number, { resolve: (value: any) => void; reject: (error: Error) => void }>();
  private readonly exited: Promise<void>;

  /** `nodeArgs` go before the script, e.g. ["--cpu-prof"] to profile the agent. */
  constructor(env: NodeJS.ProcessEnv, cwd = ROOT, nodeArgs: string[] = []) {
    this.child = spawn(process.execPath, [...nodeArgs, HERMES_BIN, "acp"], { env, cwd, stdio: ["pipe", "pipe", "pipe"] });
    this.child.stderr.setEncoding("utf8");
    this.child.stderr.on("data", (chunk: string) => {
      if (this.stderr.length < 100_000) this.stderr += chunk;
    });
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (chunk: string) => this.onData(chunk));
    this.exited = new Promise((resolve) => this.child.once("exit", () => resolve()));
    void this.exited.then(() => {
      for (const { reject } of this.pending.values()) reject(new Error(`agent exited; stderr:\n${this.stderr}`));
      this.pending.clear();
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  request(method: string, params: unknown): Promise<any> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    let newline: number;
    while ((newline = this.buffer.indexOf("\n")) >= 0) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      if (!line.trim()) continue;
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        this.strayStdout.push(line); // e.g. node --trace-gc output; never JSON-RPC
        continue;
      }
      this.onMessage(message);
    }
  }

  private onMessage(message: any): void {
    if (message.method === undefined) {
      const waiter = this.pending.get(message.id);
      if (!waiter) return;
      this.pending.delete(message.id);
      if (message.error) waiter.reject(new Error(`${JSON.stringify(message.error)}\nstderr:\n${this.stderr}`));
      else waiter.resolve(message.result);
      return;
    }
    if (message.id === undefined) {
      this.notifications++;
      return;
    }
    // A request from the agent.
    let result: unknown;
    if (message.method === "session/request_permission") {
      const allow = message.params.options.find((o: any) => o.kind === "allow_once" || o.kind === "allow_always");
      result = allow ? { outcome: { outcome: "selected", optionId: allow.optionId } } : { outcome: { outcome: "cancelled" } };
    }
    const reply = result === undefined
      ? { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: `bench client does not serve ${message.method}` } }
      : { jsonrpc: "2.0", id: message.id, result };
    this.child.stdin.write(`${JSON.stringify(reply)}\n`);
  }

  /** Closes stdin (the agent exits when the client goes away); SIGKILL after 5 s. */
  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 5_000);
    await this.exited;
    clearTimeout(timer);
  }
}

/** VmRSS and VmHWM (peak) of a process, in MB, from /proc/<pid>/status. */
export function readRss(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
    if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
    return Number(match[1]);
  };
  return { rssMb: kb("VmRSS") / 1024, peakMb: kb("VmHWM") / 1024 };
}

/**
 * CPU time (user + system) a process has used so far, in ms, from /proc/<pid>/stat (Linux;
 * undefined elsewhere). Unlike wall time it hardly moves when other work shares the CPUs, so
 * it is the figure to compare on a loaded machine. Resolution: one clock tick (10 ms).
 */
export function readCpuMs(pid: number): number | undefined {
  if (process.platform !== "linux") return undefined;
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
  return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
}

/**
 * CPU time of a process's main thread so far, in ms with ns resolution, from
 * /proc/<pid>/schedstat (Linux; undefined elsewhere or when it cannot be read). For start-up
 * figures, where the 10 ms ticks of readCpuMs are too coarse.
 */
export function readMainThreadCpuMs(pid: number): number | undefined {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
  } catch {
    return undefined;
  }
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length)); // nearest rank
  return sorted[rank - 1];
}

export const median = (values: number[]) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

export function fmt(value: number, digits = 1): string {
  return Number.isFinite(value) ? value.toFixed(digits) : "n/a";
}

export function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return value;
}

/** One row of the summary table printed by run-all. */
export interface BenchRow {
  metric: string;
  value: string;
  target: string;
  /** undefined when the metric has no target. */
  ok?: boolean;
}

/** Writes the rows to $BENCH_RESULT_FILE when run-all asked for them. */
export function reportRows(name: string, rows: BenchRow[]): void {
  const file = process.env.BENCH_RESULT_FILE;
  if (file) writeFileSync(file, JSON.stringify({ name, rows }));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
