// One server's sign-in as /mcp and `hermes doctor` say it: signed in (as whom, when the ID
// token names someone), a token past its lifetime (the SDK refreshes it on the next request),
// or a sign-in the server is waiting for. Read from the stored record: no network.
import { tokensExpireAt, type McpAuthRecord } from "./auth-store";

export function describeSignIn(record: McpAuthRecord, waitingForSignIn: boolean, now = Date.now()): string | undefined {
  if (waitingForSignIn) return "needs sign-in";
  if (!record.tokens) return undefined;
  const who = record.account ? ` as ${record.account}` : "";
  const expiresAt = tokensExpireAt(record);
  if (expiresAt !== undefined && expiresAt <= now) {
    return record.tokens.refresh_token ? `signed in${who}; token expired, refreshes on next use` : `signed in${who}; token expired, sign in again`;
  }
  return `signed in${who}`;
}
