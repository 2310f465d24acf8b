// The requestPermission a tool sees: the security policy first (which may run, refuse or
// ask), then answers the user already gave (saved in config, or for this session), then
// the user. A refusal by policy becomes the tool's result, with the reason; so does a user's
// rejection that came with their words.
import os from "node:os";
import path from "node:path";
import { hermesHome } from "../config/paths";
import type { ApprovalRules } from "../security/approval-rules";
import { commandScope, describeScope, legacyKeyMayCover, type ScopeContext } from "../security/approval-scope";
import type { CommandScope } from "../security/approval-scope-match";
import { decidePermission, type PolicyVerdict } from "../security/permission-policy";
import type { PermissionAsk } from "../tools/context";
import { ToolError } from "../tools/registry";
import { relativeInside } from "../util/inside-folder";
import { literalGlob } from "../util/path-match";
import { containsSecret } from "../util/redact";
import type { AgentSession } from "./session";
import { UserRejection, type PermissionAnswer, type ToolCallView, type TurnHost } from "./turn-io";

export function permissionGate(
  session: AgentSession,
  host: TurnHost,
  call: ToolCallView,
  signal: AbortSignal,
  /** Tells the user something that is not an answer (an "always" rule that could not be saved). */
  notice: (text: string) => void = () => {},
  /** A PreToolUse hook's decision: "allow" answers the question the user would be asked, "ask" asks even where the mode would not. */
  hookDecision?: "allow" | "ask",
): (ask: PermissionAsk) => Promise<boolean> {
  return async (ask) => {
    const sandboxed = ask.action === "execute" && !ask.unsandboxed && host.shell.sandboxed?.() === true;
    // A host the user said "always reject" to stays rejected in every mode, dont_ask included.
    if (ask.web && host.approvals?.forWeb(ask.web.host) === "reject") throw new ToolError(`The user has rejected fetches from ${ask.web.host} (a saved rule in config.yaml).`);
    const verdict = decidePermission(session.mode, ask, session.cwd, undefined, { sandboxed, hermesHome: hermesHome(), extraRoots: session.extraRoots });
    if (verdict.decision === "deny") throw new ToolError(verdict.reasons.join(" "));
    if (verdict.decision === "allow") {
      // A hook that wants the user asked is obeyed even where the mode would not ask.
      if (hookDecision !== "ask") return true;
      const answer = await askUser(session, host, call, { ...ask, reasons: [...verdict.reasons, "a PreToolUse hook asked for this to be confirmed"], askEachTime: true }, signal, () => {});
      return answer === "allow_once" || answer === "allow_session" || answer === "allow_always";
    }
    // A hook's "allow" stands in for the user's "yes, once", never for what is asked about every
    // time (secrets, code that runs later, a command outside the sandbox) and never for a refusal.
    if (hookDecision === "allow" && !verdict.askEachTime && !verdict.sensitive && !ask.unsandboxed) return true;

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
    const grants = outside ? outside.map((folder) => `outside:${ask.action}:${folder}`) : grantKeys(ask, session.cwd);
    if (outside && session.approvals.isAllowed(grants)) return true;
    // A command's answer holds exactly for the commands the card shows (security/approval-scope.ts).
    const scopeContext = commandScopeContext(session, ask);
    const scope = ask.action === "execute" && ask.command !== undefined && verdict.keys.length > 0 ? commandScope(ask.command, verdict.keys, scopeContext) : undefined;
    if (!verdict.sensitive) {
      const saved = savedAnswer(host.approvals, ask, verdict, scope, session.cwd);
      if (saved) return saved === "allow";
      if (scope ? session.approvals.commandAllowed(scope) : ask.action !== "execute" && session.approvals.isAllowed(grants)) return true;
    }
    // A command with no scope (it changes its own folder, variables or links, or only its paths
    // were flagged) is allowed once at a time: nothing could say how far a wider answer reaches.
    // So is one outside the workspace: no remembered answer is ever consulted for it.
    if (ask.action === "execute" && (!scope || verdict.sensitive)) {
      const why = "an answer holds for this run only: the command changes its own folder, variables, links or functions, or a path in it leads through a link, so its text does not pin what a wider answer would cover";
      const reasons = verdict.keys.length > 0 && !verdict.sensitive ? [...verdict.reasons, why] : verdict.reasons;
      const answer = await askUser(session, host, call, { ...ask, reasons, askEachTime: true }, signal, () => {});
      return answer === "allow_once" || answer === "allow_session" || answer === "allow_always";
    }

    const approvalScope = outside ? undefined : scope ? describeScope(scope, scopeContext) : describeAsk(ask, session.cwd);
    const shown: PermissionAsk = { ...ask, reasons: verdict.reasons, ...(outside ? { outsideFolders: outside } : {}), ...(approvalScope ? { approvalScope } : {}) };
    const answer = await askUser(session, host, call, shown, signal, () => {
      for (const problem of remember(host.approvals, ask, scope, session.cwd, "reject")) notice(problem);
    });
    if (outside) {
      if (answer === "allow_session") session.approvals.allow(grants);
      return answer === "allow_once" || answer === "allow_session";
    }
    if (answer === "allow_always" || answer === "reject_always") {
      for (const problem of remember(host.approvals, ask, scope, session.cwd, answer === "allow_always" ? "allow" : "reject")) notice(problem);
    }
    if (answer === "allow_session" || answer === "allow_always") {
      if (scope) session.approvals.allowCommands(scope);
      else session.approvals.allow(grants);
    }
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

/**
 * What "allow for this session" covers for anything but a command: the MCP tool, the host, the
 * exact files of an edit or deletion (never every edit of the session), else the kind of action.
 */
function grantKeys(ask: PermissionAsk, cwd: string): string[] {
  if (ask.mcp) return [`mcp:${ask.mcp.server}:${ask.mcp.tool}`];
  if (ask.web) return [`web:${ask.web.host}`];
  if ((ask.action === "edit" || ask.action === "delete") && ask.paths?.length) return ask.paths.map((file) => `${ask.action}:${path.resolve(cwd, file)}`);
  // Anything else (a child agent's request): that very request, as titled and shown.
  return [`${ask.action}:${ask.title}\u0000${JSON.stringify(ask.content ?? [])}`];
}

/** The card's words for what a session or saved answer covers, for asks other than commands. */
function describeAsk(ask: PermissionAsk, cwd: string): string | undefined {
  if (ask.mcp) return `\`${ask.mcp.tool}\` on the ${ask.mcp.server} MCP server`;
  if (!ask.paths?.length || (ask.action !== "edit" && ask.action !== "delete")) return `exactly this request (\`${ask.title}\`)`;
  const files = ask.paths.map((file) => `\`${relativeInside(cwd, file) || file}\``);
  const list = files.length <= 3 ? files.join(", ") : `these ${files.length} files`;
  return ask.action === "edit" ? `edits to ${list}` : `deleting ${list}`;
}

function commandScopeContext(session: AgentSession, ask: PermissionAsk): ScopeContext {
  return { home: os.homedir(), cwd: ask.workdir ?? session.cwd, workspace: session.cwd, extraRoots: session.extraRoots, hermesHome: hermesHome() };
}

function savedAnswer(rules: ApprovalRules | undefined, ask: PermissionAsk, verdict: PolicyVerdict, scope: CommandScope | undefined, cwd: string): "allow" | "reject" | undefined {
  if (!rules) return undefined;
  if (ask.web) return rules.forWeb(ask.web.host);
  if (ask.action === "execute" && ask.command !== undefined && verdict.keys.length > 0) {
    const legacy = () => legacyKeyMayCover(ask.command ?? "", verdict.keys, { home: os.homedir(), cwd: ask.workdir ?? cwd, workspace: cwd, hermesHome: hermesHome() });
    return rules.forCommand(verdict.keys, scope, scope !== undefined && legacy());
  }
  if (ask.action === "edit" && ask.paths?.length) return rules.forEdit(ask.paths, cwd);
  return undefined;
}

/**
 * Saves the answer as rules, as narrow as the card: a command's exact commands and folder, an
 * edit's exact files (absolute, as a literal glob). Returns what the user should be told about
 * rules that were not saved.
 */
function remember(rules: ApprovalRules | undefined, ask: PermissionAsk, scope: CommandScope | undefined, cwd: string, decision: "allow" | "reject"): string[] {
  if (!rules) return [];
  const problems: (string | undefined)[] = [];
  if (ask.web) return [rules.remember({ web: ask.web.host, decision })].filter((problem): problem is string => problem !== undefined);
  if (ask.action === "execute" && scope) {
    // The rule is the command's text: one that holds a token is not written into config.yaml.
    if (scope.commands.some(containsSecret)) return ["Your \"always\" answer holds for this session only: the command holds a secret, which Hermes does not write into config.yaml."];
    problems.push(rules.remember({ commands: scope.commands, folder: scope.folder, keys: scope.keys, decision }));
  }
  if (ask.action === "edit") for (const file of ask.paths ?? []) problems.push(rules.remember({ edit: literalGlob(path.resolve(cwd, file)), decision }));
  // One notice is enough when several rules of one answer failed for the same reason.
  return [...new Set(problems.filter((problem): problem is string => problem !== undefined))];
}
