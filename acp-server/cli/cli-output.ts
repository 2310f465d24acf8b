// Shared bits of the small `hermes <noun> <verb>` commands: flag parsing, --json output, and a
// one-line progress note on a terminal for work that may take a while.
import { AgentError, agentErrorText, isAgentError } from "../util/agent-error";

export interface ParsedArgs {
  words: string[];
  flags: Map<string, string | true>;
}

/** `--name value` for the flags in `withValue`, `--name` alone otherwise; words keep their order. */
export function parseArgs(args: string[], withValue: string[] = []): ParsedArgs {
  const words: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!; // i < args.length
    if (arg === "--") {
      words.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
      if (eq > 0) flags.set(name, arg.slice(eq + 1));
      else if (withValue.includes(name)) {
        const value = args[++i];
        if (value === undefined) throw new UsageError(`--${name} needs a value`);
        flags.set(name, value);
      } else flags.set(name, true);
    } else words.push(arg);
  }
  return { words, flags };
}

/** A command line the command cannot take: exit 2 with the message and a pointer to --help. */
export class UsageError extends AgentError<"invalid_params"> {
  constructor(message: string) {
    super("invalid_params", message, {});
    this.name = "UsageError";
  }
}

/** Rejects flags the command does not know (a typo must not be silently ignored). */
export function checkFlags(parsed: ParsedArgs, known: string[]): void {
  for (const name of parsed.flags.keys()) if (!known.includes(name)) throw new UsageError(`unknown option --${name}`);
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Runs `work`, saying on a terminal what is happening and how long it took when it was slow. */
export async function withProgress<T>(label: string, work: () => Promise<T>): Promise<T> {
  if (!process.stderr.isTTY) return work();
  const started = Date.now();
  const timer = setTimeout(() => process.stderr.write(`${label}...`), 300);
  try {
    return await work();
  } finally {
    clearTimeout(timer);
    const ms = Date.now() - started;
    if (ms >= 300) process.stderr.write(` done (${(ms / 1000).toFixed(1)} s)\n`);
  }
}

/**
 * Runs a command body: a UsageError is exit 2 with the message; any other member of the agent
 * error union (util/agent-error.ts) is exit 1 with its message; anything else is a bug and
 * propagates with its stack.
 */
export async function runCommand(name: string, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`hermes ${name}: ${error.message}\nRun "hermes --help" for usage.\n`);
      return 2;
    }
    if (isAgentError(error)) {
      process.stderr.write(`hermes ${name}: ${agentErrorText(error)}\n`);
      return 1;
    }
    throw error;
  }
}

export const when = (ms: number) => new Date(ms).toISOString().replace("T", " ").slice(0, 16);
