// What Hermes serves an external child as its ACP client: fs/* inside the task's folder only
// (through the session's FileAccess, so edits reach the editor as Hermes's own do), and
// terminal/* as local processes in their own process groups (the tools' LocalShellRunner).
import type * as acp from "@agentclientprotocol/sdk/unstable";
import path from "node:path";
import { hermesHome } from "../../config/paths";
import { GitPlantGuard } from "../../security/git-plant-guard";
import { recordBranchTip } from "../../security/worktree-branch-tip";
import { importWorktreeObjects } from "../../security/worktree-objects";
import { runsLater } from "../../security/runs-later";
import { insideWorkspace } from "../../security/sensitive-paths";
import { createLogger } from "../../util/log";
import type { FileAccess, RunningCommand, ShellRunner } from "../../tools/context";
import { invalidParams, notFound } from "../../util/agent-error";

const DEFAULT_OUTPUT_LIMIT = 1_000_000;
const log = createLogger("child-services");

export class ChildServices {
  private readonly terminals = new Map<string, RunningCommand>();
  private nextTerminal = 1;

  constructor(
    /** The task's folder: every path the child touches must be inside it. */
    private readonly root: string,
    private readonly files: FileAccess,
    private readonly shell: ShellRunner,
  ) {}

  /** The absolute path, or an error the child reads when it is outside the task's folder. */
  confine(target: string): string {
    const absolute = path.resolve(this.root, target);
    if (!insideWorkspace(this.root, absolute)) {
      throw invalidParams(`${target} is outside this task's folder (${this.root})`, { path: target });
    }
    return absolute;
  }

  async readTextFile(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse> {
    // A missing file is FileNotFoundError: -32002 with its path, like any not_found.
    let content = await this.files.readText(this.confine(params.path));
    if (params.line || params.limit) {
      const lines = content.split("\n");
      const start = Math.max(0, (params.line ?? 1) - 1);
      content = lines.slice(start, params.limit ? start + params.limit : undefined).join("\n");
    }
    return { content };
  }

  async writeTextFile(params: acp.WriteTextFileRequest): Promise<acp.WriteTextFileResponse> {
    const target = this.confine(params.path);
    // Code that git, an editor or Hermes runs later: nobody could approve it for the child.
    const later = runsLater(target, hermesHome());
    if (later) throw invalidParams(`${params.path} is ${later.why}; a delegated agent may not change it`, { path: params.path });
    await this.files.writeText(target, params.content);
    return {};
  }

  async createTerminal(params: acp.CreateTerminalRequest): Promise<acp.CreateTerminalResponse> {
    const cwd = this.confine(params.cwd ?? this.root);
    const env = Object.fromEntries((params.env ?? []).map((variable) => [variable.name, variable.value]));
    // What the command plants for git or the editor is undone when it ends (logged: no tool card here).
    const guard = GitPlantGuard.before([this.root]);
    const handle = await this.shell.start(commandLine(params.command, params.args ?? []), {
      cwd,
      outputLimit: params.outputByteLimit ?? DEFAULT_OUTPUT_LIMIT,
      ...(params.env?.length ? { env } : {}),
    });
    const terminalId = `child-term-${this.nextTerminal++}`;
    this.terminals.set(terminalId, handle);
    const check = () => {
      try {
        const { undone, notRestored } = guard.check();
        if (undone.length + notRestored.length > 0) log.warn("a delegated agent's command changed what git or the editor runs later", { terminalId, undone, notRestored });
      } catch (err) {
        log.warn("could not check a delegated agent's command for planted code", { terminalId, err });
      }
    };
    // Registered before anyone else can wait on this exit: the check has run when they resume.
    // Then, in a task's own worktree, the objects its git wrote go into the main repository, verified
    // (the task's apply imports again first, so nothing reads the branch before they are in).
    void handle
      .waitForExit()
      .then(check, check)
      .then(() => importWorktreeObjects(this.root))
      .then(async ({ dropped }) => {
        if (dropped.length > 0) log.warn("a delegated agent's worktree held git objects under false names; not imported", { terminalId, dropped });
        // Where the agent's command left the worktree's branch (security/worktree-branch-tip.ts).
        await recordBranchTip(this.root);
      })
      .catch((err: unknown) => log.warn("could not bring a delegated agent's new git objects into the main repository, or note where its branch is", { terminalId, err }));
    return { terminalId };
  }

  async terminalOutput(params: acp.TerminalOutputRequest): Promise<acp.TerminalOutputResponse> {
    const output = await this.terminal(params.terminalId).output();
    return {
      output: output.text,
      truncated: output.truncated,
      ...(output.exit ? { exitStatus: { exitCode: output.exit.code, signal: output.exit.signal } } : {}),
    };
  }

  async waitForExit(params: acp.WaitForTerminalExitRequest): Promise<acp.WaitForTerminalExitResponse> {
    const exit = await this.terminal(params.terminalId).waitForExit();
    return { exitCode: exit.code, signal: exit.signal };
  }

  async killTerminal(params: acp.KillTerminalRequest): Promise<acp.KillTerminalResponse> {
    await this.terminal(params.terminalId).kill();
    return {};
  }

  async releaseTerminal(params: acp.ReleaseTerminalRequest): Promise<acp.ReleaseTerminalResponse> {
    const handle = this.terminals.get(params.terminalId);
    this.terminals.delete(params.terminalId);
    await handle?.release();
    return {};
  }

  /** Kills and frees every terminal the child left open. */
  async releaseAll(): Promise<void> {
    const handles = [...this.terminals.values()];
    this.terminals.clear();
    await Promise.allSettled(handles.map((handle) => handle.release()));
  }

  private terminal(id: string): RunningCommand {
    const handle = this.terminals.get(id);
    if (!handle) throw notFound(id);
    return handle;
  }
}

/** A command and its arguments as one sh command line (terminal/create passes them apart). */
export function commandLine(command: string, args: string[]): string {
  return [command, ...args].map(shellQuote).join(" ");
}

function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
