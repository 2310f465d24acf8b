// Checks each incoming frame's JSON-RPC envelope before the ACP SDK sees it, so every
// malformed request that carries an id gets exactly one error answer with that id. The SDK
// answers a wrong `jsonrpc` or a non-string `method` with `id: null` (so the client's request
// never completes), and passes scalar `params` to handlers. Answers never echo the frame.
export type JsonRpcId = string | number | null;

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

export interface ErrorFrame {
  jsonrpc: "2.0";
  id: JsonRpcId;
  error: { code: number; message: string; data?: Record<string, unknown> };
}

export type EnvelopeCheck =
  | { ok: true; message: Record<string, unknown> }
  | { ok: false; reply: ErrorFrame };

export function errorFrame(id: JsonRpcId, code: number, message: string, data?: Record<string, unknown>): ErrorFrame {
  return { jsonrpc: "2.0", id, error: data ? { code, message, data } : { code, message } };
}

export const parseErrorFrame = (): ErrorFrame => errorFrame(null, PARSE_ERROR, "Parse error: the line is not valid JSON");

const isValidId = (id: unknown): id is JsonRpcId => id === null || typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
const isStructured = (value: unknown): boolean => typeof value === "object" && value !== null;

/** Parses one line and checks its envelope: a message for the SDK, or the error to send back. */
export function checkFrame(line: string): EnvelopeCheck {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    // expected: not JSON: JSON-RPC's parse error is the answer.
    return { ok: false, reply: parseErrorFrame() };
  }
  return checkEnvelope(value);
}

export function checkEnvelope(value: unknown): EnvelopeCheck {
  const invalid = (id: JsonRpcId, why: string): EnvelopeCheck => ({ ok: false, reply: errorFrame(id, INVALID_REQUEST, `Invalid request: ${why}`) });
  if (Array.isArray(value)) return invalid(null, "JSON-RPC batches (arrays) are not supported by ACP; send one message per line");
  if (!isStructured(value)) return invalid(null, "a message must be a JSON object");
  const message = value as Record<string, unknown>;
  const hasId = "id" in message;
  const id = hasId && isValidId(message.id) ? message.id : null;

  if (!("method" in message)) {
    // A response to one of our requests: the SDK matches it (and rejects a malformed one).
    if ("result" in message || "error" in message) return { ok: true, message };
    return invalid(id, hasId ? "method is missing" : "neither a request, a notification nor a response");
  }
  if (message.jsonrpc !== "2.0") return invalid(id, `jsonrpc must be "2.0" (got ${describe(message.jsonrpc)})`);
  if (typeof message.method !== "string") return invalid(id, `method must be a string (got ${describe(message.method)})`);
  if (hasId && !isValidId(message.id)) return invalid(null, `id must be a string, a number or null (got ${describe(message.id)})`);
  if ("params" in message && !isStructured(message.params)) return invalid(id, `params must be an object or an array (got ${describe(message.params)})`);
  return { ok: true, message };
}

/** The answer to a frame over the size limit, or a stand-in response when the frame was a response. */
export function oversizeOutcome(head: string, tail: string, limitBytes: number): { reply: ErrorFrame } | { response: ErrorFrame } {
  const keys = topLevelKeys(head);
  const id = keys.get("id") ?? trailingId(tail);
  const limit = `${Math.round((limitBytes / (1024 * 1024)) * 100) / 100} MB`;
  const data = { limitBytes };
  if (!keys.has("method") && (keys.has("result") || keys.has("error")) && id !== undefined && id !== null) {
    // The client's answer to one of our requests: fail that request instead of leaving it pending.
    return { response: errorFrame(id, INVALID_REQUEST, `Invalid request: the client's response exceeded the ${limit} frame limit (acp.max_frame_mb) and was discarded`, data) };
  }
  return {
    reply: errorFrame(
      id ?? null,
      INVALID_REQUEST,
      `Invalid request: the message exceeds the ${limit} frame limit (acp.max_frame_mb) and was discarded; send smaller content (e.g. a file link instead of the file's bytes)`,
      data,
    ),
  };
}

/**
 * The top-level keys found in the first bytes of a JSON object, with the `id` value when it
 * is there: a small scanner (strings, nesting) rather than a parse, since the frame is cut.
 */
export function topLevelKeys(head: string): Map<string, JsonRpcId | undefined> {
  const keys = new Map<string, JsonRpcId | undefined>();
  let i = head.indexOf("{");
  if (i === -1) return keys;
  i++;
  let depth = 1;
  let expectKey = true;
  while (i < head.length && depth > 0) {
    const char = head[i];
    if (char === '"') {
      const end = stringEnd(head, i);
      if (end === -1) break;
      if (depth === 1 && expectKey) {
        const key = JSON.parse(head.slice(i, end + 1)) as string;
        let j = end + 1;
        while (/\s/.test(head[j] ?? "")) j++;
        if (head[j] !== ":") break;
        j++;
        while (/\s/.test(head[j] ?? "")) j++;
        keys.set(key, key === "id" ? idAt(head, j) : undefined);
        expectKey = false;
        i = j;
        continue;
      }
      i = end + 1;
      continue;
    }
    if (char === "{" || char === "[") depth++;
    else if (char === "}" || char === "]") depth--;
    else if (char === "," && depth === 1) expectKey = true;
    i++;
  }
  return keys;
}

/**
 * An `"id"` written as the object's last key: `…,"id":7}` at the very end of the line. One
 * closing brace after the value means the outermost object (a nested one would close twice).
 */
export function trailingId(tail: string): JsonRpcId | undefined {
  const id = /[,{]\s*"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|null)\s*\}\s*$/.exec(tail)?.[1];
  if (id === undefined) return undefined;
  try {
    const value = JSON.parse(id) as unknown;
    return typeof value === "string" || typeof value === "number" || value === null ? value : undefined;
  } catch {
    // expected: an id that does not parse is no id: the error answer goes without one.
    return undefined;
  }
}

function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

function idAt(text: string, at: number): JsonRpcId | undefined {
  if (text[at] === '"') {
    const end = stringEnd(text, at);
    return end === -1 ? undefined : (JSON.parse(text.slice(at, end + 1)) as string);
  }
  const number = /^-?\d+(\.\d+)?([eE][+-]?\d+)?(?=\s*[,}])/.exec(text.slice(at, at + 40));
  if (number) return Number(number[0]);
  return text.startsWith("null", at) ? null : undefined;
}

function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return JSON.stringify(value.length > 20 ? `${value.slice(0, 20)}…` : value);
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return `${typeof value} ${String(value)}`;
  return typeof value === "object" ? "an object" : typeof value;
}
