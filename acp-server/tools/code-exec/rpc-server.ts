// The agent's end of a program's tool channel: reads request lines from the program, runs each
// through the caller's `call` (the session's normal tool path), one at a time in arrival order,
// and writes one reply line per request. Hostile input gets an error reply, never a throw.
import type { NestedToolResult } from "../context";
import { MAX_REQUEST_BYTES, parseRequestLine, type RpcReply } from "./rpc-messages";

export interface RpcServerOptions {
  maxCalls: number;
  call: (tool: string, args: Record<string, unknown>) => Promise<NestedToolResult>;
  /** Each call as it ends, for the card. */
  onCall?: (tool: string, ok: boolean) => void;
}

export class ToolRpcServer {
  calls = 0;
  private pending = "";
  /** Inside a line already answered as too large: its rest is dropped up to the next newline. */
  private skipping = false;
  private closed = false;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    requests: NodeJS.ReadableStream,
    private readonly replies: NodeJS.WritableStream,
    private readonly options: RpcServerOptions,
  ) {
    requests.setEncoding("utf8");
    requests.on("data", (chunk: string) => this.receive(chunk));
  }

  /** Resolves when every request received so far has been answered. */
  settled(): Promise<void> {
    return this.queue;
  }

  /** The program has ended: requests still queued are not run (nobody waits for them). */
  close(): void {
    this.closed = true;
  }

  private receive(chunk: string): void {
    this.pending += chunk;
    let newline: number;
    while ((newline = this.pending.indexOf("\n")) >= 0) {
      const line = this.pending.slice(0, newline);
      this.pending = this.pending.slice(newline + 1);
      if (this.skipping) this.skipping = false;
      else if (line.trim()) this.enqueue(line);
    }
    // A line that never ends must not grow without bound: answer it (in turn) and drop the rest of it.
    if (this.pending.length > MAX_REQUEST_BYTES || (this.skipping && this.pending)) {
      if (!this.skipping) this.enqueueReply({ id: null, ok: false, error: `request too large (over ${MAX_REQUEST_BYTES} bytes)` });
      this.pending = "";
      this.skipping = true;
    }
  }

  private enqueueReply(reply: RpcReply): void {
    this.queue = this.queue.then(() => this.send(reply));
  }

  private enqueue(line: string): void {
    this.queue = this.queue.then(() => this.answer(line));
  }

  private async answer(line: string): Promise<void> {
    const parsed = parseRequestLine(line);
    if (!("request" in parsed)) return this.send({ id: parsed.id, ok: false, error: parsed.error });
    const { id, tool, args } = parsed.request;
    if (this.closed) return this.send({ id, ok: false, error: "the program has ended" });
    if (this.calls >= this.options.maxCalls) {
      return this.send({ id, ok: false, error: `tool call limit reached (${this.options.maxCalls} per program)` });
    }
    this.calls++;
    let result: NestedToolResult;
    try {
      result = await this.options.call(tool, args);
    } catch (error) {
      result = { output: { error: (error as Error)?.message ?? String(error) }, isError: true };
    }
    this.options.onCall?.(tool, !result.isError);
    if (result.isError) return this.send({ id, ok: false, error: errorOf(result.output) });
    // The program gets an object: a tool whose output is text (web_fetch) is wrapped.
    const value = typeof result.output === "string" ? { content: result.output } : result.output;
    this.send({ id, ok: true, result: value });
  }

  private send(reply: RpcReply): void {
    this.replies.write(`${JSON.stringify(reply)}\n`);
  }
}

function errorOf(output: unknown): string {
  if (typeof output === "string") return output;
  const error = (output as { error?: unknown } | null)?.error;
  return typeof error === "string" ? error : JSON.stringify(output);
}
