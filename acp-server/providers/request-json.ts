// A model request's JSON body, assembled from pieces serialized once. The loop sends the whole
// history and the same tool list on every call of a turn, so JSON.stringify of the body spent
// most of its time re-encoding messages and ~19 KB of tool schemas it had encoded on the call
// before. History messages and a turn's tool list are never modified once built (the providers'
// conversions share them: chat-completions-messages.ts), so each one's JSON is kept with it.
// The result is byte for byte what JSON.stringify(body) gives.

/** JSON.stringify(value), kept for this object: only for values never modified after first use. */
const frozen = new WeakMap<object, string>();

function frozenJson(value: unknown): string {
  if (typeof value !== "object" || value === null) return (JSON.stringify(value) as string | undefined) ?? "null";
  let json = frozen.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    frozen.set(value, json);
  }
  return json;
}

/**
 * How a top-level field is reused: "items", an array whose elements are each serialized once
 * (the history); "whole", a value serialized once as a whole (a turn's tool list).
 */
export type ReusedFields = Record<string, "items" | "whole">;

/** Exactly JSON.stringify(body), with the `reused` fields' parts serialized only the first time they are seen. */
export function requestJson(body: object, reused: ReusedFields): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    // JSON.stringify leaves these out of an object.
    if (value === undefined || typeof value === "function" || typeof value === "symbol") continue;
    const how = reused[key];
    let json: string | undefined;
    if (how === "items" && Array.isArray(value)) json = `[${value.map(frozenJson).join(",")}]`;
    else if (how === "whole") json = frozenJson(value);
    else json = JSON.stringify(value) as string | undefined; // undefined: a toJSON that says leave it out
    if (json === undefined) continue;
    parts.push(`${JSON.stringify(key)}:${json}`);
  }
  return `{${parts.join(",")}}`;
}
