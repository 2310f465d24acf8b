// One session's hooks: for each event, the hooks that apply (the user's and the plugins' always;
// the project's once trusted), run (hook-runner.ts) and read (hook-output.ts). A hook that fails
// never breaks the turn: the failure is told to the user and the turn goes on as if the hook had
// said nothing. Every run is logged with its event, command, exit, duration and what it decided.
import type { HookEvent } from "../config/hooks-schema";
import type { Logger } from "../util/log";
import { redactSecrets } from "../util/redact";
import { matcherSelects, toolNamesFor, type ToolIdentity } from "./hook-matcher";
import { combineHookRuns, type HookVerdict } from "./hook-output";
import { runHookCommands } from "./hook-runner";
import { describeOrigin, type HookSpec, type LoadedHooks } from "./hook-sources";
import { isHooksFileTrusted, trustHooksFile } from "./hook-trust";

export interface SessionHooksOptions {
  loaded: LoadedHooks;
  home: string;
  sessionId: string;
  cwd: string;
  transcriptPath: string;
  /** The session's permission mode now (Claude Code's `permission_mode`). */
  mode: () => string;
  /** Asks the user to trust the project's hooks file (never called in dont_ask). */
  askTrust: (file: string, commands: string[]) => Promise<boolean>;
  /** Tells the user something about hooks (a failure, a skipped file). */
  tell: (text: string) => void;
  /** Keeps a hook run in the session's journal. */
  journal: (run: { event: string; command: string; origin: string; exit: number | null; timedOut: boolean; ms: number; decision: string }) => void;
  log: Logger;
}

/** A tool call as hooks see it. */
export interface HookedCall extends ToolIdentity {
  input: unknown;
}

export class SessionHooks {
  private projectTrusted?: Promise<boolean>;

  constructor(private readonly options: SessionHooksOptions) {
    for (const problem of options.loaded.problems) options.tell(`Hooks: ${problem}`);
  }

  /** Whether any hook is configured at all (nothing to do otherwise). */
  get empty(): boolean {
    return this.options.loaded.trusted.length === 0 && !this.options.loaded.project?.hooks.length;
  }

  /** Every hook of this session, trusted or not, for /hooks. */
  all(): { spec: HookSpec; active: boolean }[] {
    const project = this.options.loaded.project;
    const projectActive = project ? isHooksFileTrusted(this.options.home, project.file, project.hash) : false;
    return [...this.options.loaded.trusted.map((spec) => ({ spec, active: true })), ...(project?.hooks ?? []).map((spec) => ({ spec, active: projectActive }))];
  }

  async beforeTool(call: HookedCall, signal?: AbortSignal): Promise<{ decision?: "allow" | "deny" | "ask"; reason?: string; updatedInput?: Record<string, unknown>; said: string[] }> {
    const verdict = await this.run("PreToolUse", { tool_name: call.name, tool_input: call.input }, toolNamesFor(call), signal);
    return {
      ...(verdict.permission ? { decision: verdict.permission } : {}),
      ...(verdict.permissionReason ? { reason: verdict.permissionReason } : {}),
      ...(verdict.updatedInput ? { updatedInput: verdict.updatedInput } : {}),
      said: verdict.said,
    };
  }

  async afterTool(call: HookedCall, result: { text: string; isError: boolean }, signal?: AbortSignal): Promise<{ context: string[]; block?: string; said: string[] }> {
    const verdict = await this.run("PostToolUse", { tool_name: call.name, tool_input: call.input, tool_response: result.text, tool_failed: result.isError }, toolNamesFor(call), signal);
    return { context: verdict.context, ...(verdict.block ? { block: verdict.block } : {}), said: verdict.said };
  }

  userPromptSubmit(prompt: string, signal?: AbortSignal): Promise<HookVerdict> {
    return this.run("UserPromptSubmit", { prompt }, undefined, signal);
  }

  sessionStart(source: "startup" | "resume" | "clear" | "compact"): Promise<HookVerdict> {
    return this.run("SessionStart", { source }, [source]);
  }

  stop(stopHookActive: boolean, subagent = false): Promise<HookVerdict> {
    return this.run(subagent ? "SubagentStop" : "Stop", { stop_hook_active: stopHookActive });
  }

  subagentStop(stopHookActive: boolean): Promise<HookVerdict> {
    return this.stop(stopHookActive, true);
  }

  beforeCompact(trigger: "manual" | "auto"): Promise<HookVerdict> {
    return this.preCompact(trigger);
  }

  notification(message: string): Promise<HookVerdict> {
    return this.run("Notification", { message });
  }

  preCompact(trigger: "manual" | "auto", customInstructions = ""): Promise<HookVerdict> {
    return this.run("PreCompact", { trigger, custom_instructions: customInstructions }, [trigger]);
  }

  sessionEnd(reason: string): Promise<HookVerdict> {
    return this.run("SessionEnd", { reason });
  }

  private async run(event: HookEvent, fields: Record<string, unknown>, names?: readonly string[], signal?: AbortSignal): Promise<HookVerdict> {
    const specs = await this.specsFor(event, names);
    if (specs.length === 0) return { context: [], messages: [], failures: [], said: [] };
    const { sessionId, cwd, transcriptPath, mode, log, tell } = this.options;
    const input = { session_id: sessionId, transcript_path: transcriptPath, cwd, hook_event_name: event, permission_mode: mode(), ...fields };
    const runs = await runHookCommands(specs, input, { cwd, projectDir: cwd, ...(signal ? { signal } : {}) });
    for (const run of runs) {
      log.info("hook ran", { event, command: redactSecrets(run.spec.command), origin: run.spec.origin.kind, exit: run.exitCode, timedOut: run.timedOut, ms: run.durationMs });
    }
    const verdict = combineHookRuns(event, runs);
    for (const run of runs) {
      const decided = verdict.said.find((line) => line.startsWith(`${run.spec.command} (`)) ?? verdict.failures.find((line) => line.includes(run.spec.command)) ?? "";
      this.options.journal({ event, command: run.spec.command, origin: describeOrigin(run.spec.origin), exit: run.exitCode, timedOut: run.timedOut, ms: run.durationMs, decision: decided });
    }
    for (const failure of verdict.failures) tell(`Hook ${event}: ${failure}. The turn goes on.`);
    for (const message of verdict.messages) tell(message);
    return verdict;
  }

  private async specsFor(event: HookEvent, names: readonly string[] | undefined): Promise<HookSpec[]> {
    const select = (spec: HookSpec) => spec.event === event && (names === undefined || matcherSelects(spec.matcher, names));
    const chosen = this.options.loaded.trusted.filter(select);
    const project = this.options.loaded.project;
    const fromProject = project?.hooks.filter(select) ?? [];
    if (fromProject.length > 0 && (await this.projectIsTrusted())) chosen.push(...fromProject);
    return chosen;
  }

  /** Asked once per session at most; granted for the file's exact content, remembered across sessions. */
  private projectIsTrusted(): Promise<boolean> {
    const project = this.options.loaded.project;
    if (!project) return Promise.resolve(false);
    this.projectTrusted ??= (async () => {
      const { home, mode, askTrust, tell } = this.options;
      if (isHooksFileTrusted(home, project.file, project.hash)) return true;
      if (mode() === "dont_ask") {
        tell(`The project's hooks in ${project.file} are not trusted yet, so they do not run; dont_ask mode never trusts them. Switch to another mode to be asked.`);
        return false;
      }
      const granted = await askTrust(project.file, [...new Set(project.hooks.map((spec) => `${spec.event}${spec.matcher ? ` (${spec.matcher})` : ""}: ${spec.command}`))]);
      if (granted) trustHooksFile(home, project.file, project.hash);
      else tell(`The project's hooks in ${project.file} do not run in this session (not trusted).`);
      return granted;
    })();
    return this.projectTrusted;
  }
}
