// authenticate and logout at the edge: the key and model a client passes in `_meta` (ACP's
// authenticate has no field for them), and the keys removed, in the answer's `_meta`. The work
// itself is app/sign-in.ts.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import { authenticate, logout } from "../app/sign-in";
import { AUTH_META } from "../config/sign-in-methods";
import type { AgentRuntime } from "../runtime/runtime";
import { invalidParams } from "../util/agent-error";
import type { Logger } from "../util/log";

export { authRequiredError } from "../app/sign-in";

export async function authenticateRequest(params: acp.AuthenticateRequest, runtime: AgentRuntime, log: Logger): Promise<{ changed: boolean }> {
  const apiKey = params._meta?.[AUTH_META.apiKey];
  if (apiKey !== undefined && typeof apiKey !== "string") throw invalidParams(`_meta "${AUTH_META.apiKey}" must be a string`);
  const model = params._meta?.[AUTH_META.model];
  return authenticate({ methodId: params.methodId, ...(apiKey !== undefined ? { apiKey } : {}), ...(typeof model === "string" ? { model } : {}) }, runtime, log);
}

export async function logoutRequest(loadRuntime: () => Promise<AgentRuntime>, log: Logger): Promise<acp.LogoutResponse> {
  const { removed } = await logout(loadRuntime, log);
  return { _meta: { "hermes/removed": removed } };
}
