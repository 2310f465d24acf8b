// Claude Code's tool names as aliases of Hermes's, so that what users already write for Claude
// Code (`--allowedTools Bash`, a hooks matcher `Edit|Write`) means the same here. A name that is
// not an alias stands for itself (a Hermes tool or toolset name).
const CLAUDE_ALIASES: Record<string, readonly string[]> = {
  Bash: ["terminal"],
  BashOutput: ["process"],
  KillShell: ["process"],
  Read: ["read_file"],
  Write: ["write_file"],
  Edit: ["patch"],
  MultiEdit: ["patch", "apply_patch"],
  NotebookEdit: ["patch"],
  Grep: ["search_files"],
  Glob: ["search_files"],
  LS: ["search_files"],
  WebFetch: ["web_fetch"],
  WebSearch: ["web_search"],
  Task: ["delegate_task"],
  TodoWrite: ["todo"],
};

/** The Hermes names `name` stands for: its aliases' targets, or itself. */
export function hermesToolNames(name: string): readonly string[] {
  return Object.hasOwn(CLAUDE_ALIASES, name) ? (CLAUDE_ALIASES[name] ?? [name]) : [name];
}

/** Claude Code's names for a Hermes tool (a hooks matcher written for Claude Code matches them). */
export function claudeNamesOf(hermesName: string): string[] {
  return Object.entries(CLAUDE_ALIASES)
    .filter(([, targets]) => targets.includes(hermesName))
    .map(([claude]) => claude);
}
