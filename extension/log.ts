// The logger the extension's modules take. In VS Code it is the "Hermes" LogOutputChannel
// (which has exactly these methods); tests pass a recording one. Keeps modules vscode-free.
export interface Logger {
  trace(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string | Error): void;
}

/** A logger that keeps lines in memory (tests) and optionally echoes them. */
export function memoryLogger(echo = false): Logger & { lines: string[] } {
  const lines: string[] = [];
  const put = (level: string) => (message: string | Error) => {
    const line = `${level} ${message instanceof Error ? message.message : message}`;
    lines.push(line);
    if (echo) process.stderr.write(`${line}\n`);
  };
  return { lines, trace: put("trace"), info: put("info"), warn: put("warn"), error: put("error") };
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (error && typeof error === "object" && "message" in error) return String(error.message);
  return String(error);
}

/**
 * An error as the user reads it in the panel: no protocol jargon. The ACP SDK's "ACP connection
 * closed" means the agent process went away; other messages are kept, with "ACP" said plainly.
 */
export function userMessage(error: unknown): string {
  const message = errorMessage(error);
  if (/^ACP connection closed\b/i.test(message) || /^connection closed$/i.test(message)) return "The agent stopped unexpectedly (its connection closed).";
  return message.replace(/\bACP\b\s*/g, "agent ");
}
