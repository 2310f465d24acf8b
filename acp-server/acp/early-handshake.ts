// Answers the client's opening `initialize` before the ACP SDK is loaded. Loading the SDK
// (and the zod schemas it builds at import) is most of Hermes's start-up time, and editors
// wait on this answer before they show the agent as ready.
//
// The SDK still sees the whole conversation: the initialize line is replayed into it, so
// it initializes as usual, and its own (identical) answer to that request is dropped from
// stdout. Anything that is not a plain, well-formed initialize is left to the SDK.
import type { Readable, Writable } from "node:stream";
import type { Logger } from "../util/log";
import { coalescingWriter } from "./stdout-writer";

export interface Handshake {
  /** Every byte read from stdin, the first line included, then the rest of stdin. */
  input: ReadableStream<Uint8Array>;
  /** stdout for the SDK, minus its answer to an initialize that was answered early. */
  output: WritableStream<Uint8Array>;
  /** Writes ready-made frames straight to stdout, after everything the SDK has handed over. */
  writeFrames(text: string): Promise<void>;
}

type JsonRpcId = string | number;

export async function earlyHandshake(stdin: Readable, stdout: Writable, answer: () => unknown, log: Logger): Promise<Handshake> {
  let received = Buffer.alloc(0);
  let forward: ((chunk: Buffer) => void) | undefined;
  let ended = false;
  let finish: (() => void) | undefined;
  let fail: ((error: unknown) => void) | undefined;

  const firstLine = new Promise<string | undefined>((resolve) => {
    stdin.on("data", (chunk: Buffer) => {
      if (forward) return forward(chunk);
      received = Buffer.concat([received, chunk]);
      const newline = received.indexOf(0x0a);
      if (newline >= 0) resolve(received.subarray(0, newline).toString("utf8"));
    });
    stdin.once("end", () => {
      ended = true;
      finish?.();
      resolve(undefined);
    });
    stdin.once("error", (error) => fail?.(error));
  });

  const line = await firstLine;
  const request = line === undefined ? undefined : plainInitialize(line);
  if (request) stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id: request.id, result: answer() })}\n`);

  // The SDK answers requests that arrive before its initialize answer went out with
  // "not initialized"; a client that got our early answer may already have sent more.
  // So the SDK gets the initialize line alone, and the rest once it has answered it.
  let release: () => void = () => {};
  const initialized = request ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
  const cut = request ? received.indexOf(0x0a) + 1 : received.length;
  const held: Buffer[] = [received.subarray(cut)];

  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = false;
      if (cut > 0) controller.enqueue(received.subarray(0, cut));
      forward = (chunk) => held.push(chunk);
      finish = () => open && controller.close();
      fail = (error) => controller.error(error);
      void initialized.then(() => {
        open = true;
        for (const chunk of held.splice(0)) if (chunk.length > 0) controller.enqueue(chunk);
        forward = (chunk) => controller.enqueue(chunk);
        if (ended) controller.close();
      });
    },
  });
  const write = coalescingWriter(stdout);
  return { input, output: filteredOutput(write, request?.id, release, log), writeFrames: (text) => write(Buffer.from(text, "utf8")) };
}

/** Drops the SDK's answer to the replayed initialize (and then opens the input gate). */
function filteredOutput(
  write: (data: Uint8Array) => Promise<void>,
  answeredId: JsonRpcId | undefined,
  answered: () => void,
  log: Logger,
): WritableStream<Uint8Array> {
  let dropping = answeredId !== undefined;
  let held = Buffer.alloc(0);

  return new WritableStream<Uint8Array>({
    async write(chunk) {
      if (!dropping) return write(chunk);
      held = Buffer.concat([held, chunk]);
      let newline: number;
      while (dropping && (newline = held.indexOf(0x0a)) >= 0) {
        const line = held.subarray(0, newline + 1);
        held = held.subarray(newline + 1);
        const message = safeParse(line.toString("utf8")) as { id?: JsonRpcId; method?: string; error?: unknown } | undefined;
        if (message && message.id === answeredId && message.method === undefined) {
          dropping = false;
          if (message.error) log.error("the SDK rejected an initialize that was already answered", { error: message.error });
          answered();
        } else {
          await write(line);
        }
      }
      if (!dropping && held.length > 0) {
        const rest = held;
        held = Buffer.alloc(0);
        await write(rest);
      }
    },
  });
}

/** The request if `line` is an ordinary initialize whose params the SDK will accept. */
export function plainInitialize(line: string): { id: JsonRpcId } | undefined {
  const message = safeParse(line) as Record<string, unknown> | undefined;
  if (!isObject(message) || message.jsonrpc !== "2.0" || message.method !== "initialize") return undefined;
  if (typeof message.id !== "string" && !Number.isInteger(message.id)) return undefined;
  const params = message.params;
  if (!isObject(params)) return undefined;
  const version = params.protocolVersion;
  if (!Number.isInteger(version) || (version as number) < 0 || (version as number) > 65535) return undefined;
  const capabilities = params.clientCapabilities;
  if (capabilities !== undefined) {
    if (!isObject(capabilities)) return undefined;
    const fs = capabilities.fs;
    if (fs !== undefined && !(isObject(fs) && optionalBoolean(fs.readTextFile) && optionalBoolean(fs.writeTextFile))) return undefined;
    if (!optionalBoolean(capabilities.terminal)) return undefined;
  }
  const info = params.clientInfo;
  if (info !== undefined && info !== null && !(isObject(info) && typeof info.name === "string" && typeof info.version === "string")) {
    return undefined;
  }
  return { id: message.id as JsonRpcId };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function optionalBoolean(value: unknown): boolean {
  return value === undefined || typeof value === "boolean";
}
