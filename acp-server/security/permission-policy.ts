// Decides, before any prompt, what an action needs: run it, ask the user, or refuse it.
// The session mode sets the baseline; commands are screened (hardline ones never run);
// anything outside the workspace or touching credentials asks in every mode but dont_ask.
// Commands fail closed: what the screen cannot resolve asks in default mode, is refused in
// plan mode, and in dont_ask runs only inside the sandbox; where no sandbox applies (none
// here, turned off, or the editor's bare terminals) only commands known to be read-only run
// without asking, in every mode: the rest is asked each time, dont_ask included; Hermes's own
// state is never written by a command in any mode. A file tool changes what runs later
// (Hermes's state, git's hooks and config, editors' auto-run settings) only with the user's
// yes to that very change (never in dont_ask or plan mode, never remembered).
import os from "node:os";
import type { PolicyAsk } from "./policy-ask";
import { screenCommand } from "./command-screen";
import type { SessionMode } from "./modes";
import { planModeAllows } from "./read-only-commands";
import { bareCommandAllowed } from "./bare-allowlist";
import path from "node:path";
import { insideWorkspace, realPath, sensitiveReason, type Workspace } from "./sensitive-paths";
import { uploadVerdict } from "./upload-policy";
import { hermesHome } from "../config/paths";
import { runsLater, type RunsLaterKind } from "./runs-later";

export interface PolicyVerdict {
  decision: "allow" | "ask" | "deny";
  /** Why it asks or refuses, for the prompt (and the model, on refusal). */
  reasons: string[];
  /** Rule keys of a screened command, for "always allow" answers. */
  keys: string[];
  /** A credential or outside path: remembered approvals do not apply, the user is asked each time. */
  sensitive: boolean;
  /**
   * Set for a command that cannot be resolved statically or touches Hermes's own state, and for
   * a file tool on a credential: no saved or session-wide approval covers it, and none may be
   * created from it.
   */
  askEachTime?: boolean;
  /**
   * A file tool outside the workspace (no credential involved): the folders it touches. The user
   * may allow that action in those folders for the session; it is never saved to config.
   */
  outsideFolders?: string[];
}

/** What the caller knows beyond the mode: whether commands run inside the OS sandbox, where Hermes keeps its state. */
export interface PolicyContext {
  /** Commands run inside the sandbox. Missing means no sandbox (fail closed). */
  sandboxed?: boolean;
  /** $HERMES_HOME; defaults to the process's (config/paths.ts). */
  hermesHome?: string;
  /** The login name for `~name` / `$USER` in commands; defaults to the current user. */
  user?: string;
  /** The workspace's other roots (ACP additionalDirectories): inside them is inside the workspace. */
  extraRoots?: readonly string[];
}

const BARE_COMMAND = "no OS sandbox applies to this session's commands, and this one is not known to be read-only";


const PLAN_REFUSAL = "Plan mode is read-only: commands that may change files or state are not run. Finish with a plan (todo); the user switches mode to act.";

export function decidePermission(mode: SessionMode, ask: PolicyAsk, cwd: string, home: string = os.homedir(), context: PolicyContext = {}): PolicyVerdict {
  if (ask.outboundSecret) return outboundSecretVerdict(ask.outboundSecret);
  if (ask.unsandboxed) return outsideSandboxVerdict(mode, ask, cwd, home, context);
  const workspace: Workspace = context.extraRoots?.length ? [cwd, ...context.extraRoots] : cwd;
  const verdict = (decision: PolicyVerdict["decision"], reasons: string[] = [], keys: string[] = [], sensitive = false): PolicyVerdict => ({ decision, reasons, keys, sensitive });

  if (ask.action === "execute" && ask.command !== undefined) {
    // Screened where it runs: the tool's workdir (resolved by the tool), else the session folder.
    const runsIn = ask.workdir ?? cwd;
    const screen = screenCommand(ask.command, {
      home,
      cwd: runsIn,
      workspace: cwd,
      ...(context.extraRoots?.length ? { extraRoots: context.extraRoots } : {}),
      hermesHome: context.hermesHome ?? hermesHome(),
      ...(context.user ? { user: context.user } : {}),
    });
    // Where nothing contains it: screened safe, read-only, and naming nothing outside the workspace.
    const bareAllowed = () => screen.level === "safe" && bareCommandAllowed(ask.command as string, { cwd: runsIn, workspace, home, hermesHome: context.hermesHome ?? hermesHome() });
    if (screen.level === "hardline") return verdict("deny", [`Hermes never runs this command: ${screen.reasons.join("; ")}.`], screen.keys);
    const askEachTime = screen.unresolved || screen.hermesState;
    if (mode === "dont_ask") {
      if (screen.hermesState) return verdict("deny", [`Hermes does not run commands that may change its own state, even in Don't ask mode: ${screen.reasons.join("; ")}.`], screen.keys);
      if (screen.unresolved && !context.sandboxed) {
        return verdict("deny", [`This command cannot be checked before it runs (${screen.reasons.join("; ")}), and without the sandbox Don't ask mode does not run such commands. Write it with literal commands and paths, or switch to Default mode to approve it.`], screen.keys);
      }
      if (!context.sandboxed && !bareAllowed()) return { ...verdict("ask", [BARE_COMMAND, ...screen.reasons], screen.keys, true), askEachTime: true };
      return verdict("allow", [], screen.keys);
    }
    if (mode === "plan") {
      if (screen.unresolved || !planModeAllows(ask.command)) return verdict("deny", [PLAN_REFUSAL]);
    }
    const outside = outsideReasons(ask.paths ?? [], workspace);
    // No sandbox under it: an allowlist, not a list of dangers. A command not known to be
    // read-only is asked about each time: a safe-looking one has no rule key that could keep
    // an approval as narrow as this one line, and a rule saved while commands ran sandboxed
    // did not mean "without the sandbox".
    if (mode !== "plan" && !context.sandboxed && !bareAllowed()) {
      const dangers = screen.level === "dangerous" ? screen.reasons : [];
      return { ...verdict("ask", [BARE_COMMAND, ...dangers, ...outside], screen.keys, outside.length > 0), askEachTime: true };
    }
    if (screen.level === "dangerous") return { ...verdict("ask", [...screen.reasons, ...outside], screen.keys, outside.length > 0), askEachTime };
    return outside.length > 0 ? verdict("ask", outside, [], true) : verdict("allow");
  }

  if (ask.web) return webVerdict(mode, ask.web.host);
  if (ask.moved) return movedVerdict(mode, ask);
  // A file tool's own resolution of its path counts like the path: what it opens is what is judged.
  if (ask.resolved?.length) ask = { ...ask, paths: [...new Set([...(ask.paths ?? []), ...ask.resolved])] };
  // Before dont_ask's blanket allow of reads: an upload sends the files' bytes to a site.
  if (ask.upload) return uploadVerdict(mode, ask.paths ?? [], workspace, ask.upload.destination);
  // What runs later outside any sandbox: Hermes's own state (config.yaml, .env, MCP servers,
  // rules, memories, skills), git's hooks and config, editors' auto-run settings
  // (security/runs-later.ts). Before dont_ask's blanket allow; each change is asked by name.
  const planted = plantedTargets(ask, context.hermesHome ?? hermesHome());
  if (planted.length > 0) {
    const what = planted.map(({ target, why }) => `${target}: ${why}`).join("; ");
    if (mode === "dont_ask" || mode === "plan") {
      return { ...verdict("deny", [`A file tool does not change ${what}, in ${mode === "plan" ? "Plan" : "Don't ask"} mode or by itself: ${refusalHint(planted)}`], [], true), askEachTime: true };
    }
    return { ...verdict("ask", [`it changes ${what}; approved for this change only`], [], true), askEachTime: true };
  }
  if (mode === "dont_ask") return dontAskVerdict(ask, workspace);
  if (ask.mcp) {
    const { server, tool, readOnly, confirm } = ask.mcp;
    if (mode === "plan" && !readOnly) {
      return verdict("deny", [`Plan mode is read-only: "${tool}" on the MCP server "${server}" is not marked read-only, so it is not run. Put it in the plan; the user switches mode to act.`]);
    }
    return confirm ? verdict("ask", [`the "${server}" server's configuration asks for confirmation of ${tool}`]) : verdict("allow");
  }
  const paths = ask.paths ?? [];
  const sensitive = paths.map(sensitiveReason).filter((reason): reason is string => reason !== undefined);
  const outside = outsideReasons(paths, workspace);
  const flagged = [...sensitive.map((reason) => `sensitive path: ${reason}`), ...outside];
  // Credentials: asked every time, never remembered. Outside the workspace only: the user may
  // allow it for the session, folder by folder (never saved: config rules are for the workspace).
  const flaggedVerdict = (): PolicyVerdict =>
    sensitive.length > 0
      ? { ...verdict("ask", flagged, [], true), askEachTime: true }
      : { ...verdict("ask", flagged, [], true), outsideFolders: [...new Set(paths.filter((target) => !insideWorkspace(workspace, target)).map((target) => path.dirname(realPath(target))))] };

  switch (ask.action) {
    case "read":
      return flagged.length > 0 ? flaggedVerdict() : verdict("allow");
    case "edit":
    case "delete":
      if (mode === "plan") return verdict("deny", ["Plan mode is read-only: files are not changed. Describe the change in the plan instead; the user switches mode to act."]);
      if (flagged.length > 0) return flaggedVerdict();
      return mode === "accept_edits" ? verdict("allow") : verdict("ask", ["edits are approved one by one in the default mode"]);
    default:
      return verdict("ask", flagged);
  }
}

/**
 * web_fetch: a read of someone else's server, and a way to send data out (in the URL). Asked per
 * host in every mode that asks, plan mode included (fetching changes nothing here); dont_ask
 * fetches without asking, like it runs everything. The SSRF guard applies in every mode.
 */
function webVerdict(mode: SessionMode, host: string): PolicyVerdict {
  if (mode === "dont_ask") return { decision: "allow", reasons: [], keys: [], sensitive: false };
  return { decision: "ask", reasons: [`web_fetch asks before reaching a site it has not been allowed to (${host})`], keys: [], sensitive: false };
}

/**
 * A secret about to leave in a tool's request: the user is asked in every mode (dont_ask and plan
 * too: nobody chose to send it), for this request only.
 */
function outboundSecretVerdict(secret: { names: string[]; destination: string }): PolicyVerdict {
  const reason = `it would send ${secret.names.join(", ")} to ${secret.destination}; approved for this request only`;
  return { decision: "ask", reasons: [reason], keys: [], sensitive: true, askEachTime: true };
}

/** The edited or deleted paths that something runs later, with why (security/runs-later.ts). */
function plantedTargets(ask: PolicyAsk, home: string): Array<{ target: string; why: string; kind: RunsLaterKind }> {
  if (ask.action !== "edit" && ask.action !== "delete") return [];
  return (ask.paths ?? []).flatMap((target) => {
    const found = runsLater(target, home);
    return found ? [{ target, why: found.why, kind: found.kind }] : [];
  });
}

function refusalHint(planted: Array<{ kind: RunsLaterKind }>): string {
  if (planted.some((entry) => entry.kind === "hermes-state")) return "use Hermes's own commands (/memory, /skills, hermes config) or ask the user in Default mode.";
  return "ask the user to make this change, or to approve it in Default mode.";
}

/**
 * A file tool's path that resolves elsewhere than when it was approved (a link appeared, a
 * folder was swapped): never written through on the old answer. Nobody to ask in dont_ask, nothing
 * to change in plan mode: refused; otherwise asked again, for this change only.
 */
function movedVerdict(mode: SessionMode, ask: PolicyAsk): PolicyVerdict {
  const where = [...(ask.resolved ?? ask.paths ?? [])].join(", ");
  const why = `the path changed after it was checked: it now leads to ${where}`;
  if (mode === "dont_ask" || mode === "plan") return { decision: "deny", reasons: [`Refused: ${why}. Nothing was read or written through it.`], keys: [], sensitive: true, askEachTime: true };
  return { decision: "ask", reasons: [`${why}; approved for this change only`], keys: [], sensitive: true, askEachTime: true };
}

/**
 * dont_ask pre-approves the workspace, not the machine: a file tool's edit or delete outside it
 * (through a link, or a file with another hard link, which may be `~/.bashrc`) is refused, since
 * nobody is there to approve a write the card never showed. Everything else runs.
 */
function dontAskVerdict(ask: PolicyAsk, workspace: Workspace): PolicyVerdict {
  const allow: PolicyVerdict = { decision: "allow", reasons: [], keys: [], sensitive: false };
  if (ask.action !== "edit" && ask.action !== "delete") return allow;
  const outside = outsideReasons(ask.paths ?? [], workspace);
  if (outside.length === 0) return allow;
  const reason = `Refused in Don't ask mode: a file tool changes nothing outside the workspace (${outside.join("; ")}). Ask the user to switch to Default mode, where each such change is asked.`;
  return { decision: "deny", reasons: [reason], keys: [], sensitive: true, askEachTime: true };
}

function outsideReasons(paths: string[], workspace: Workspace): string[] {
  return paths.filter((target) => !insideWorkspace(workspace, target)).map((target) => `outside the workspace: ${target}`);
}

/**
 * Running a command outside the OS sandbox: refused wherever nobody is asked (dont_ask) or
 * nothing may change (plan), refused if the command itself is; otherwise the user is asked,
 * every time (`sensitive`: no remembered or session-wide approval covers it).
 */
function outsideSandboxVerdict(mode: SessionMode, ask: PolicyAsk, cwd: string, home: string, context: PolicyContext): PolicyVerdict {
  const refuse = (reason: string): PolicyVerdict => ({ decision: "deny", reasons: [reason], keys: [], sensitive: true });
  if (mode === "dont_ask") return refuse("Running a command outside the sandbox needs the user's approval each time, and dont_ask mode asks nobody: it stays in the sandbox.");
  if (mode === "plan") return refuse("Plan mode is read-only: nothing runs outside the sandbox. Put it in the plan; the user switches mode to act.");
  const inner = decidePermission(mode, { ...ask, unsandboxed: false }, cwd, home, { ...context, sandboxed: false });
  if (inner.decision === "deny") return inner;
  const why = ask.unsandboxedReason ? `: ${ask.unsandboxedReason}` : "";
  return { decision: "ask", reasons: [`run once OUTSIDE the OS sandbox (full access to your files and network)${why}`, ...inner.reasons], keys: inner.keys, sensitive: true, askEachTime: true };
}
