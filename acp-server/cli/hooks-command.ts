// `hermes hooks [list] | test EVENT [--tool NAME] [--input JSON] [--prompt TEXT]`: the hooks a
// session in this folder would run, and a dry run of one event: the JSON each matching hook
// would receive, run for real, and what it answered and what Hermes makes of it. A project's
// hooks that are not trusted yet are listed, never run (trust is given in a session).
import { randomUUID } from "node:crypto";
import { HOOK_EVENTS, type HookEvent } from "../config/hooks-schema";
import { loadConfig } from "../config/load";
import { describeConfigError } from "../config/config-error";
import { matcherSelects, toolNamesFor } from "../hooks/hook-matcher";
import { combineHookRuns } from "../hooks/hook-output";
import { runHookCommands } from "../hooks/hook-runner";
import { describeOrigin, loadHooks, type HookSpec } from "../hooks/hook-sources";
import { isHooksFileTrusted } from "../hooks/hook-trust";
import { docsPath } from "../util/docs-path";
import { configureLogging } from "../util/log";
import { checkFlags, parseArgs, printJson, runCommand, UsageError } from "./cli-output";
import { printText } from "./terminal-safe";

export async function runHooksCli(args: string[]): Promise<number> {
  return runCommand("hooks", async () => {
    const parsed = parseArgs(args, ["tool", "input", "prompt", "cwd"]);
    checkFlags(parsed, ["json", "tool", "input", "prompt", "cwd"]);
    const [verb = "list", eventName] = parsed.words;
    const json = parsed.flags.has("json");
    const cwd = String(parsed.flags.get("cwd") ?? process.cwd());
    const loaded = loadConfig();
    if (loaded.error) {
      process.stderr.write(describeConfigError(loaded));
      return 2;
    }
    configureLogging({ home: loaded.home, stderrLevel: "error" });
    const found = loadHooks({ userHooks: loaded.config.hooks, configPath: loaded.configPath, home: loaded.home, cwd });
    for (const problem of found.problems) process.stderr.write(`warning: ${problem}\n`);
    const projectTrusted = found.project ? isHooksFileTrusted(loaded.home, found.project.file, found.project.hash) : false;
    const all = [...found.trusted.map((spec) => ({ spec, active: true })), ...(found.project?.hooks ?? []).map((spec) => ({ spec, active: projectTrusted }))];

    if (verb === "list") {
      if (json) printJson(all.map(({ spec, active }) => ({ event: spec.event, matcher: spec.matcher, command: spec.command, timeout: spec.timeout, from: describeOrigin(spec.origin), active })));
      else if (all.length === 0) process.stderr.write(`No hooks (config.yaml \`hooks:\`, .hermes/hooks.json, or a plugin; see ${docsPath("extending.md")}).\n`);
      else for (const { spec, active } of all) printText(`${spec.event.padEnd(17)} ${(spec.matcher || "*").padEnd(14)} ${spec.command}  (${describeOrigin(spec.origin)}${active ? "" : ", not trusted yet"})\n`);
      return 0;
    }
    if (verb !== "test") throw new UsageError(`unknown hooks command "${verb}" (list, test EVENT)`);
    if (!eventName || !(HOOK_EVENTS as readonly string[]).includes(eventName)) throw new UsageError(`test needs an event: ${HOOK_EVENTS.join(", ")}`);
    const event = eventName as HookEvent;
    const tool = String(parsed.flags.get("tool") ?? "terminal");
    let toolInput: unknown = { command: "echo hello" };
    if (parsed.flags.has("input")) {
      try {
        toolInput = JSON.parse(String(parsed.flags.get("input")));
      } catch (error) {
        throw new UsageError(`--input is not JSON: ${(error as Error).message}`);
      }
    }
    const fields = eventFields(event, tool, toolInput, String(parsed.flags.get("prompt") ?? "hello"));
    const names = event === "PreToolUse" || event === "PostToolUse" ? toolNamesFor({ name: tool, toolset: "" }) : event === "SessionStart" ? ["startup"] : undefined;
    const matching = all.filter(({ spec }) => spec.event === event && (names === undefined || matcherSelects(spec.matcher, names)));
    const input = { session_id: `dry-run-${randomUUID()}`, transcript_path: "", cwd, hook_event_name: event, permission_mode: "default", ...fields };
    const runnable: HookSpec[] = matching.filter(({ active }) => active).map(({ spec }) => spec);
    const runs = await runHookCommands(runnable, input, { cwd, projectDir: cwd });
    const verdict = combineHookRuns(event, runs);
    if (json) {
      printJson({ input, hooks: runs.map((run) => ({ command: run.spec.command, from: describeOrigin(run.spec.origin), exit: run.exitCode, timedOut: run.timedOut, stdout: run.stdout, stderr: run.stderr })), skipped: matching.filter(({ active }) => !active).map(({ spec }) => spec.command), verdict });
      return 0;
    }
    process.stdout.write(`A ${event} hook receives on stdin:\n${JSON.stringify(input, null, 2)}\n\n`);
    if (matching.length === 0) process.stdout.write("No hook matches this event.\n");
    for (const { spec } of matching.filter(({ active }) => !active)) process.stdout.write(`not run (the project's hooks are not trusted yet): ${spec.command}\n`);
    for (const run of runs) {
      process.stdout.write(`\n${run.spec.command} (${describeOrigin(run.spec.origin)}): exit ${run.timedOut ? "timeout" : (run.exitCode ?? "signal")}, ${run.durationMs} ms\n`);
      if (run.stdout.trim()) printText(`  stdout: ${run.stdout.trim()}\n`);
      if (run.stderr.trim()) printText(`  stderr: ${run.stderr.trim()}\n`);
    }
    const decided = [...verdict.said, ...(verdict.context.length ? [`context for the model: ${verdict.context.join(" / ")}`] : []), ...verdict.failures.map((failure) => `failure: ${failure}`)];
    if (decided.length) process.stdout.write(`\nHermes reads:\n${decided.map((line) => `  - ${line}`).join("\n")}\n`);
    return 0;
  });
}

function eventFields(event: HookEvent, tool: string, toolInput: unknown, prompt: string): Record<string, unknown> {
  switch (event) {
    case "PreToolUse":
      return { tool_name: tool, tool_input: toolInput };
    case "PostToolUse":
      return { tool_name: tool, tool_input: toolInput, tool_response: "(the tool's result)", tool_failed: false };
    case "UserPromptSubmit":
      return { prompt };
    case "Notification":
      return { message: "Hermes needs your permission: (a tool call)" };
    case "Stop":
    case "SubagentStop":
      return { stop_hook_active: false };
    case "PreCompact":
      return { trigger: "manual", custom_instructions: "" };
    case "SessionStart":
      return { source: "startup" };
    case "SessionEnd":
      return { reason: "other" };
  }
}
