// The system prompt, built once per session at its first prompt and then frozen:
// it stays byte-identical for the whole session so provider prompt caches stay valid.
// Anything that changes between calls belongs in the ephemeral layer, never here.
import { execFile } from "node:child_process";
import os from "node:os";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface PromptFacts {
  cwd: string;
  toolNames: string[];
  date: string;
  platform: string;
  git?: { branch: string; changedFiles: number };
}

const IDENTITY = `You are Hermes, a coding agent working inside the user's editor. You help developers understand, change and run their code. Be direct and precise; prefer doing the work over describing it.`;

const EDITOR_HINTS = `You are connected to the editor through the Agent Client Protocol. The user sees every tool call you make as it happens, with file diffs and command output, and may be asked to approve edits. Keep replies concise and in Markdown; refer to files by their path relative to the working directory.`;

const TOOL_GUIDANCE = `How to work:
- Look before you change: use search_files to find code and read_file to read it before editing.
- Edit with patch (exact old_string → new_string) for targeted changes; use write_file for new files or full rewrites.
- Run commands with terminal (tests, builds, git). Use background: true for servers and watchers, then process to poll or kill them.
- For multi-step work, keep a todo list with the todo tool and update it as you go.
- Several independent read-only calls (reads, searches) can be made in one reply; they run in parallel.
- When a tool returns an error, read it and adjust instead of repeating the same call.
- You remember past conversations through session_search: when the user refers to earlier work ("we talked about this before", "like last time", "that bug from yesterday"), search for it instead of guessing or asking them to repeat it.
- Finish with a short summary of what you changed and how you verified it.`;

export function renderSystemPrompt(facts: PromptFacts): string {
  const environment = [
    `Working directory: ${facts.cwd}`,
    `Platform: ${facts.platform}`,
    `Date: ${facts.date}`,
    facts.git ? `Git branch: ${facts.git.branch} (${facts.git.changedFiles} changed file${facts.git.changedFiles === 1 ? "" : "s"} at session start)` : "Not a git repository.",
  ].join("\n");
  return [IDENTITY, EDITOR_HINTS, TOOL_GUIDANCE, `Available tools: ${facts.toolNames.join(", ")}.`, `# Environment\n${environment}`].join("\n\n");
}

export async function gatherPromptFacts(cwd: string, toolNames: string[]): Promise<PromptFacts> {
  return {
    cwd,
    toolNames,
    date: new Date().toISOString().slice(0, 10),
    platform: `${os.type()} ${os.release()} (${process.platform}/${process.arch})`,
    git: await gitSummary(cwd),
  };
}

async function gitSummary(cwd: string): Promise<PromptFacts["git"]> {
  try {
    const options = { cwd, timeout: 2_000, windowsHide: true };
    const [branch, status] = await Promise.all([
      run("git", ["rev-parse", "--abbrev-ref", "HEAD"], options),
      run("git", ["status", "--porcelain"], options),
    ]);
    const changedFiles = status.stdout.split("\n").filter((line) => line.trim() !== "").length;
    return { branch: branch.stdout.trim(), changedFiles };
  } catch {
    return undefined; // not a repository, or no git: the prompt says so
  }
}
