// The `hermes.*` settings (declared in package.json), read fresh each time so changes apply
// without a reload.
import os from "node:os";
import * as vscode from "vscode";
import type { AgentSettings } from "./agent-process";

const section = () => vscode.workspace.getConfiguration("hermes");

export function agentSettings(): AgentSettings {
  const config = section();
  return {
    command: config.get<string>("agent.command", ""),
    args: config.get<string[]>("agent.args", []),
    env: config.get<Record<string, string>>("agent.env", {}),
  };
}

/** The mode of new chats: the setting, but always plan in an untrusted workspace. */
export function initialMode(): string | undefined {
  if (!vscode.workspace.isTrusted) return "plan";
  const mode = section().get<string>("defaultMode", "default");
  return mode === "default" ? undefined : mode;
}

export function reviewEdits(): "perHunk" | "off" {
  return section().get<string>("review.edits", "perHunk") === "off" ? "off" : "perHunk";
}

export function traceEnabled(): boolean {
  return section().get<boolean>("trace", false);
}

/** The first workspace folder, else the home folder: where new sessions work. */
/** The multi-root workspace's other local folders (the first one is the cwd). */
export function workspaceExtraRoots(): string[] {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === "file").map((f) => f.uri.fsPath);
  return folders.slice(1);
}

export function workspaceCwd(): string {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === "file");
  return folder?.uri.fsPath ?? os.homedir();
}
