// The requestPermission a tool sees: the security policy first (which may run, refuse or
// ask), then answers the user already gave (saved in config, or for this session), then
// the user. A refusal by policy becomes the tool's result, with the reason; so does a user's
// rejection that came with their words.
import { hermesHome } from "../config/paths";
import type { ApprovalRules } from "../security/approval-rules";
import { decidePermission, type PolicyVerdict } from "../security/permission-policy";
import type { PermissionAsk } from "../tools/context";
import { ToolError } from "../tools/registry";
import { relativeInside } from "../util/inside-folder";
import type { AgentSession } from "./session";
import { UserRejection, type PermissionAnswer, type ToolCallView, type TurnHost } from "./turn-io";

export function permissionGate(
  session: AgentSession,
  host: TurnHost,
  call: ToolCallView,
  signal: AbortSignal,
  /** Tells the user something that is not an answer (an "always" rule that could not be saved). */
  notice: (text: string) => void = () => {},
): (ask: PermissionAsk) => Promise<boolean> {
  return async (ask) => {
    const sandboxed = ask.action === "execute" && !ask.unsandboxed && host.shell.sandboxed?.() === true;
    // A host the user said "always reject" to stays rejected in every mode, dont_ask included.
    if (ask.web && host.approvals?.forWeb(ask.web.host) === "reject") throw new ToolError(`The user has rejected fetches from ${ask.web.host} (a saved rule in config.yaml).`);
    const verdict = decidePermission(session.mode, ask, session.cwd, undefined, { sandboxed, hermesHome: hermesHome(), extraRoots: session.extraRoots });
    if (verdict.decision === "deny") throw new ToolError(verdict.reasons.join(" "));
    if (verdict.decision === "allow") return true;

    // A command that cannot be resolved statically, or that touches Hermes's own state, is
    // asked about every time: no saved or session grant covers it, and none is created from it.
    if (verdict.askEachTime) {
      const answer = await askUser(session, host, call, { ...ask, reasons: verdict.reasons, askEachTime: true }, signal, () => {});
      // Outside the sandbox is one run only, whatever the answer claims.
      if (ask.unsandboxed) return answer === "allow_once";
      return answer === "allow_once" || answer === "allow_session" || answer === "allow_always";
    }

    // Outside the workspace: "for this session" covers that action in those folders only, and nothing is saved.
    const outside = verdict.outsideFolders;
    const grants = outside ? outside.map((folder) => `outside:${ask.action}:${folder}`) : grantKeys(ask, verdict);
    if (outside && session.isAllowed(grants)) return true;
    if (!verdict.sensitive) {
      const saved = savedAnswer(host.approvals, ask, verdict, session.cwd);
      if (saved) return saved === "allow";
      if (session.isAllowed(grants)) return true;
    }

    const answer = await askUser(session, host, call, { ...ask, reasons: verdict.reasons, ...(outside ? { outsideFolders: outside } : {}) }, signal, () => {
      for (const problem of remember(host.approvals, ask, verdict, session.cwd, "reject")) notice(problem);
    });
    if (answer === "allow_session") session.allow(grants);
    if (outside) return answer === "allow_once" || answer === "allow_session";
    if (answer === "allow_always" || answer === "reject_always") {
      for (const problem of remember(host.approvals, ask, verdict, session.cwd, answer === "allow_always" ? "allow" : "reject")) notice(problem);
    }
    if (answer === "allow_always") session.allow(grants);
    return answer === "allow_once" || answer === "allow_session" || answer === "allow_always";
  };
}

/**
 * The user's answer. A rejection that came with their words ends the tool with those words as
 * its result (the model reads "The user rejected this: …"); `rejectAlways` saves it when asked to.
 */
async function askUser(session: AgentSession, host: TurnHost, call: ToolCallView, ask: PermissionAsk, signal: AbortSignal, rejectAlways: () => void): Promise<PermissionAnswer> {
  session.recordPermissionAsked(call, ask);
  try {
    return await host.askUser(call, ask, signal);
  } catch (error) {
    if (!(error instanceof UserRejection)) throw error;
    if (error.always) rejectAlways();
    throw new ToolError(error.message);
  } finally {
    session.recordPermissionAnswered(call.id);
  }
}

/** What "allow for this session" covers: the command's rule keys, the MCP tool, else the kind of action. */
function grantKeys(ask: PermissionAsk, verdict: PolicyVerdict): string[] {
  if (ask.mcp) return [`mcp:${ask.mcp.server}:${ask.mcp.tool}`];
  if (ask.web) return [`web:${ask.web.host}`];
  return verdict.keys.length > 0 ? verdict.keys.map((key) => `command:${key}`) : [`action:${ask.action}`];
}

function savedAnswer(rules: ApprovalRules | undefined, ask: PermissionAsk, verdict: PolicyVerdict, cwd: string): "allow" | "reject" | undefined {
  if (!rules) return undefined;
  if (ask.web) return rules.forWeb(ask.web.host);
  if (ask.action === "execute" && verdict.keys.length > 0) return rules.forCommand(verdict.keys);
  if (ask.action === "edit" && ask.paths?.length) return rules.forEdit(ask.paths, cwd);
  return undefined;
}

/** Saves the answer as rules; returns what the user should be told about rules that were not saved. */
function remember(rules: ApprovalRules | undefined, ask: PermissionAsk, verdict: PolicyVerdict, cwd: string, decision: "allow" | "reject"): string[] {
  if (!rules) return [];
  const problems: (string | undefined)[] = [];
  if (ask.web) return [rules.remember({ web: ask.web.host, decision })].filter((problem): problem is string => problem !== undefined);
  if (ask.action === "execute") for (const key of verdict.keys) problems.push(rules.remember({ command: key, decision }));
  if (ask.action === "edit") {
    for (const file of ask.paths ?? []) {
      const relative = relativeInside(cwd, file) || file;
      problems.push(rules.remember({ edit: relative, decision }));
    }
  }
  // One notice is enough when several rules of one answer failed for the same reason.
  return [...new Set(problems.filter((problem): problem is string => problem !== undefined))];
}
