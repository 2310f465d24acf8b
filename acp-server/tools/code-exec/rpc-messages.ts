// The wire format between a program run by execute_code and the agent: one JSON object per
// line. Everything the program sends is untrusted input (the model wrote it), so each line is
// size-capped and checked against these schemas before anything acts on it.
import * as z from "zod";

/** Longest request line accepted; a longer one is answered with an error and dropped. */
export const MAX_REQUEST_BYTES = 1_000_000;

export const RpcRequestSchema = z
  .object({
    id: z.number().int().nonnegative(),
    tool: z.string().min(1).max(100),
    args: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();
export type RpcRequest = z.infer<typeof RpcRequestSchema>;

/** A reply: the tool's (redacted) output, or the error the program raises. `id` is null when the request could not be read. */
export type RpcReply = { id: number | null; ok: true; result: unknown } | { id: number | null; ok: false; error: string };

/** Reads one request line: the request, or the error to send back. */
export function parseRequestLine(line: string): { request: RpcRequest } | { id: number | null; error: string } {
  if (Buffer.byteLength(line) > MAX_REQUEST_BYTES) return { id: null, error: `request too large (over ${MAX_REQUEST_BYTES} bytes)` };
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    // expected: the program sent a line that is not JSON; it gets an error reply
    return { id: null, error: "request is not valid JSON" };
  }
  const parsed = RpcRequestSchema.safeParse(raw);
  if (parsed.success) return { request: parsed.data };
  const id = typeof raw === "object" && raw !== null && Number.isInteger((raw as { id?: unknown }).id) ? ((raw as { id: number }).id) : null;
  return { id, error: `malformed request: ${z.prettifyError(parsed.error)}` };
}
