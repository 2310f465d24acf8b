// Runs hook commands the way Claude Code does: each as the user's own program (`sh -c`, outside
// the sandbox: a hook is configuration the user wrote or trusted), in the session's folder, with
// the child-environment allowlist plus CLAUDE_PROJECT_DIR / HERMES_PROJECT_DIR (and
// CLAUDE_PLUGIN_ROOT / HERMES_PLUGIN_ROOT for a plugin's hook), the event's JSON on stdin. All
// hooks of an event run in parallel; identical commands run once. Each has its own timeout, after
// which its whole process group is killed: a hook can neither hang nor outlive the turn.
import { childEnv } from "../security/child-env";
import { ProcessGroup } from "../util/process-group";
import type { HookSpec } from "./hook-sources";

export interface HookRun {
  spec: HookSpec;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** The command could not be started. */
  error?: string;
  durationMs: number;
}

/** Most of a hook's stdout or stderr kept (the rest is dropped, and says so). */
const MAX_OUTPUT = 64 * 1024;

export async function runHookCommands(specs: readonly HookSpec[], input: Record<string, unknown>, options: { cwd: string; projectDir: string; signal?: AbortSignal }): Promise<HookRun[]> {
  const unique = new Map<string, HookSpec>();
  for (const spec of specs) {
    const key = `${spec.origin.kind === "plugin" ? spec.origin.root : ""}\0${spec.command}`;
    if (!unique.has(key)) unique.set(key, spec);
  }
  const payload = `${JSON.stringify(input)}\n`;
  return Promise.all([...unique.values()].map((spec) => runOne(spec, payload, options)));
}

function runOne(spec: HookSpec, payload: string, options: { cwd: string; projectDir: string; signal?: AbortSignal }): Promise<HookRun> {
  const started = Date.now();
  const env: Record<string, string> = { ...childEnv(process.env), CLAUDE_PROJECT_DIR: options.projectDir, HERMES_PROJECT_DIR: options.projectDir };
  if (spec.origin.kind === "plugin") Object.assign(env, { CLAUDE_PLUGIN_ROOT: spec.origin.root, HERMES_PLUGIN_ROOT: spec.origin.root });
  return new Promise<HookRun>((resolve) => {
    let group: ProcessGroup;
    try {
      group = ProcessGroup.spawn("/bin/sh", ["-c", spec.command], { cwd: options.cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    } catch (error) {
      resolve({ spec, exitCode: null, stdout: "", stderr: "", timedOut: false, error: (error as Error).message, durationMs: 0 });
      return;
    }
    const child = group.child;
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    const keep = (current: string, chunk: Buffer) => (current.length >= MAX_OUTPUT ? current : (current + chunk.toString("utf8")).slice(0, MAX_OUTPUT));
    child.stdout?.on("data", (chunk: Buffer) => (stdout = keep(stdout, chunk)));
    child.stderr?.on("data", (chunk: Buffer) => (stderr = keep(stderr, chunk)));
    // A hook that does not read its input must not fail the write.
    child.stdin?.on("error", () => {});
    child.stdin?.end(payload);
    const stop = () => {
      timedOut = true;
      void group.stop({ graceMs: 500 });
    };
    const timer = setTimeout(stop, spec.timeout * 1000);
    const onAbort = () => void group.stop({ graceMs: 200 });
    options.signal?.addEventListener("abort", onAbort, { once: true });
    let startError: string | undefined;
    child.once("error", (error) => (startError = error.message));
    child.once("close", (code) => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      resolve({ spec, exitCode: code, stdout, stderr, timedOut, ...(startError ? { error: startError } : {}), durationMs: Date.now() - started });
    });
  });
}
