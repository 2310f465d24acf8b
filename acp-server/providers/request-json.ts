// A model request's JSON body, assembled from pieces encoded once. The loop sends the whole
// history and the same tool list on every call of a turn, so JSON.stringify of the body, then its
// UTF-8 encoding, spent most of their time re-encoding messages and ~19 KB of tool schemas they
// had encoded on the call before (~0.35 ms a call at 75 KB). History messages and a turn's tool
// list are never modified once built (the providers' conversions share them:
// chat-completions-messages.ts), so each one's UTF-8 JSON is kept with it, and a body is one
// copy of those bytes. The result is byte for byte Buffer.from(JSON.stringify(body)).

/** The UTF-8 JSON of a value, kept for this object: only for values never modified after first use. */
const frozen = new WeakMap<object, Buffer>();
/** The same for an array item, as `,` + its JSON: a body is one copy per item (the first drops the comma). */
const frozenItems = new WeakMap<object, Buffer>();

const OPEN = Buffer.from("[");
const CLOSE = Buffer.from("]");

function encoded(json: string): Buffer {
  return Buffer.from(json, "utf8");
}

function frozenJson(value: unknown, cache = frozen, prefix = ""): Buffer {
  if (typeof value !== "object" || value === null) return encoded(`${prefix}${(JSON.stringify(value) as string | undefined) ?? "null"}`);
  let bytes = cache.get(value);
  if (bytes === undefined) {
    bytes = encoded(`${prefix}${(JSON.stringify(value) as string | undefined) ?? "null"}`); // an item whose toJSON gives undefined is null
    cache.set(value, bytes);
  }
  return bytes;
}

/**
 * How a top-level field is reused: "items", an array whose elements are each encoded once (the
 * history); "whole", a value encoded once as a whole (a turn's tool list).
 */
export type ReusedFields = Record<string, "items" | "whole">;

/** Exactly Buffer.from(JSON.stringify(body)), with the `reused` fields' parts encoded only the first time they are seen. */
export function requestJsonBytes(body: object, reused: ReusedFields): Buffer {
  const parts: Buffer[] = [];
  for (const [key, value] of Object.entries(body)) {
    // JSON.stringify leaves these out of an object.
    if (value === undefined || typeof value === "function" || typeof value === "symbol") continue;
    // Only arrays are reused (an array's JSON is never left out, unlike an object whose toJSON says so).
    const how = Array.isArray(value) ? reused[key] : undefined;
    let json: string | undefined;
    if (how === undefined) {
      json = JSON.stringify(value) as string | undefined; // undefined: a toJSON that says leave it out
      if (json === undefined) continue;
    }
    parts.push(Buffer.from(`${parts.length === 0 ? "{" : ","}${JSON.stringify(key)}:`, "utf8"));
    if (json !== undefined) parts.push(Buffer.from(json, "utf8"));
    else if (how === "items" && Array.isArray(value)) {
      parts.push(OPEN);
      value.forEach((item, i) => {
        const bytes = frozenJson(item, frozenItems, ",");
        parts.push(i === 0 ? bytes.subarray(1) : bytes);
      });
      parts.push(CLOSE);
    } else parts.push(frozenJson(value));
  }
  parts.push(Buffer.from(parts.length === 0 ? "{}" : "}"));
  return Buffer.concat(parts);
}
