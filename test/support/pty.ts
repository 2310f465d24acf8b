// A command in a real pseudo-terminal, without native modules: util-linux `script` allocates the
// pty and relays our pipe to it. The test types with `write` and waits for text with `waitFor`
// (output is kept whole, ANSI sequences stripped for matching).
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";

export interface Pty {
  child: ChildProcessWithoutNullStreams;
  /** Everything shown so far, ANSI escapes removed. */
  output(): string;
  write(text: string): void;
  /** Resolves once `pattern` appears in the output after `from` (default: anywhere). */
  waitFor(pattern: RegExp, options?: { from?: number; timeoutMs?: number }): Promise<void>;
  exited: Promise<number | null>;
  kill(): void;
}

// eslint-disable-next-line no-control-regex -- matching ESC is the point
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-B]|\r/g;

function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function hasScript(): boolean {
  return process.platform === "linux";
}

export function spawnInPty(command: string[], options: { env: NodeJS.ProcessEnv; cwd?: string }): Pty {
  const line = command.map(shellQuote).join(" ");
  // -q quiet, -f flush each write, -e return the command's exit code, -c the command; no typescript file.
  const child = spawn("script", ["-qfec", line, "/dev/null"], { env: { ...options.env, TERM: "dumb", COLUMNS: "120", LINES: "40" }, cwd: options.cwd, stdio: ["pipe", "pipe", "pipe"] });
  let text = "";
  const waiters: { pattern: RegExp; from: number; resolve: () => void }[] = [];
  const check = () => {
    for (const waiter of [...waiters]) {
      if (waiter.pattern.test(text.slice(waiter.from))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  const take = (chunk: Buffer) => {
    text += chunk.toString("utf8").replace(ANSI, "");
    check();
  };
  child.stdout.on("data", take);
  child.stderr.on("data", take);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    output: () => text,
    write: (input) => child.stdin.write(input),
    waitFor: (pattern, { from = 0, timeoutMs = 20_000 } = {}) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}; output so far:\n${text}`)), timeoutMs);
        waiters.push({ pattern, from, resolve: () => (clearTimeout(timer), resolve()) });
        check();
      }),
    exited,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
}
