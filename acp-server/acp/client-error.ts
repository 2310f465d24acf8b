// What a client's error answer says, in its own words. Clients often answer a refused request
// with the generic JSON-RPC message ("Internal error") and put the real reason (the user or the
// editor's policy refused it) in `data`: the model should see that reason, not the label.
const GENERIC = /^(internal error|invalid params|invalid request|method not found)\.?$/i;

export function clientErrorText(error: unknown): string {
  const message = String((error as { message?: unknown })?.message ?? error).trim();
  const data = (error as { data?: unknown })?.data;
  const detail = dataText(data);
  if (!detail) return message;
  if (!message || GENERIC.test(message)) return detail;
  return message.includes(detail) ? message : `${message}: ${detail}`;
}

function dataText(data: unknown): string | undefined {
  if (typeof data === "string") return data.trim() || undefined;
  if (!data || typeof data !== "object") return undefined;
  const record = data as Record<string, unknown>;
  for (const key of ["reason", "message", "details", "detail", "error"]) {
    const value = record[key];
    if (typeof value === "string" && value.trim()) return value.trim();
  }
  return undefined;
}
