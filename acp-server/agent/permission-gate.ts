// Joins the mode policy and the user's answers into the requestPermission a tool sees.
import { decidePermission } from "../security/permission-policy";
import type { PermissionAsk } from "../tools/context";
import type { AgentSession } from "./session";
import type { ToolCallView, TurnHost } from "./turn-io";

export function permissionGate(
  session: AgentSession,
  host: TurnHost,
  call: ToolCallView,
  signal: AbortSignal,
): (ask: PermissionAsk) => Promise<boolean> {
  return async (ask) => {
    if (session.alwaysAllowed.has(ask.action)) return true;
    if (decidePermission(session.mode, ask, session.cwd) === "allow") return true;
    const answer = await host.askUser(call, ask, signal);
    if (answer === "allow_always") session.alwaysAllowed.add(ask.action);
    return answer !== "reject";
  };
}
