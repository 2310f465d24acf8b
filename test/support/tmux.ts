// A command in a tmux pane, read as the user sees it: `capture-pane` gives the screen after the
// terminal has applied every escape (carriage returns, line clears, colours with -e), so a test can
// check layout (what sits under what) and not only the byte stream. Each pane runs on its own tmux
// server socket, so tests never share or leave behind a server.
import { execFileSync, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export interface TmuxPane {
  /** The screen and scrollback, plain text (colours with `{ colours: true }`). */
  screen(options?: { colours?: boolean }): string;
  /** Types literal text (no Enter). */
  type(text: string): void;
  /** Presses keys by tmux name: "Enter", "C-c", "C-d". */
  press(...keys: string[]): void;
  /** Polls the screen until `pattern` matches; rejects with the screen after `timeoutMs`. */
  waitFor(pattern: RegExp, options?: { timeoutMs?: number; colours?: boolean }): Promise<string>;
  /** The pane's title, as an escape sequence (OSC 0/2) written to the terminal would set it. */
  title(): string;
  /** Polls until the command in the pane has ended; returns its exit status (128 + N if killed by signal N). */
  exited(timeoutMs?: number): Promise<number>;
  kill(): void;
}

export function hasTmux(): boolean {
  return spawnSync("tmux", ["-V"]).status === 0;
}

function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function startInTmux(command: string[], options: { env: NodeJS.ProcessEnv; cwd?: string; width?: number; height?: number }): TmuxPane {
  const socket = `hermes-test-${randomUUID().slice(0, 8)}`;
  const tmux = (...args: string[]) => execFileSync("tmux", ["-L", socket, "-f", "/dev/null", ...args], { env: options.env, encoding: "utf8" });
  // The exit status is written by a shell that waits for the command, not read from tmux: on a
  // loaded machine tmux 3.3a was seen to leave the ended command a zombie it never reaped, so the
  // pane was dead but #{pane_dead_status} stayed empty for good (the "chat does not end" flake).
  // `trap : INT` keeps the shell alive through a Ctrl-C sent to the pane's process group, while the
  // command itself gets the default SIGINT (a trapped signal is reset in children, an ignored one is not).
  const statusDir = mkdtempSync(path.join(os.tmpdir(), "hermes-tmux-"));
  const statusFile = path.join(statusDir, "status");
  const line = `trap : INT; ${command.map(quote).join(" ")}; echo $? > ${quote(statusFile)}`;
  tmux("new-session", "-d", "-x", String(options.width ?? 100), "-y", String(options.height ?? 40), ...(options.cwd ? ["-c", options.cwd] : []), line);
  // remain-on-exit keeps the pane (and its screen) after the command ends.
  tmux("set-option", "-g", "remain-on-exit", "on");
  tmux("set-option", "-g", "history-limit", "5000");
  const screen = ({ colours = false } = {}) => tmux("capture-pane", "-p", "-J", "-S", "-", ...(colours ? ["-e"] : []));
  const poll = async <T>(probe: () => T | undefined, timeoutMs: number, describe: () => string): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = probe();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(describe());
      // Polling the screen is the only way to see it; the deadline above bounds the whole wait.
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  return {
    screen,
    type: (text) => void tmux("send-keys", "-l", text),
    press: (...keys) => void tmux("send-keys", ...keys),
    title: () => tmux("display-message", "-p", "#{pane_title}").trim(),
    waitFor: (pattern, { timeoutMs = 30_000, colours = false } = {}) =>
      poll(
        () => {
          const shown = screen({ colours });
          return pattern.test(shown) ? shown : undefined;
        },
        timeoutMs,
        () => `timed out waiting for ${pattern}; the screen:\n${screen()}`,
      ),
    exited: (timeoutMs = 60_000) =>
      poll(
        () => {
          try {
            const status = readFileSync(statusFile, "utf8").trim();
            return status ? Number(status) : undefined;
          } catch {
            // expected: the command is still running (the file is written once it has ended)
            return undefined;
          }
        },
        timeoutMs,
        () => `the command did not end; the screen:\n${screen()}`,
      ),
    kill: () => {
      try {
        tmux("kill-server");
      } catch {
        // expected: the server is already gone
      }
      rmSync(statusDir, { recursive: true, force: true });
    },
  };
}
