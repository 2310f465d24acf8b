// Decides, before any prompt, what an action needs: run it, ask the user, or refuse it.
// The session mode sets the baseline; commands are screened (hardline ones never run);
// anything outside the workspace or touching credentials asks in every mode but dont_ask.
import os from "node:os";
import type { PermissionAsk } from "../tools/context";
import { screenCommand } from "./command-screen";
import type { SessionMode } from "./modes";
import { planModeAllows } from "./read-only-commands";
import { insideWorkspace, sensitiveReason } from "./sensitive-paths";

export interface PolicyVerdict {
  decision: "allow" | "ask" | "deny";
  /** Why it asks or refuses, for the prompt (and the model, on refusal). */
  reasons: string[];
  /** Rule keys of a screened command, for "always allow" answers. */
  keys: string[];
  /** A credential or outside path: remembered approvals do not apply, the user is asked each time. */
  sensitive: boolean;
}

export function decidePermission(mode: SessionMode, ask: PermissionAsk, cwd: string, home: string = os.homedir()): PolicyVerdict {
  const verdict = (decision: PolicyVerdict["decision"], reasons: string[] = [], keys: string[] = [], sensitive = false): PolicyVerdict => ({ decision, reasons, keys, sensitive });

  if (ask.action === "execute" && ask.command !== undefined) {
    const screen = screenCommand(ask.command, { home, cwd });
    if (screen.level === "hardline") return verdict("deny", [`Hermes never runs this command: ${screen.reasons.join("; ")}.`], screen.keys);
    if (mode === "dont_ask") return verdict("allow", [], screen.keys);
    if (mode === "plan" && !planModeAllows(ask.command)) {
      return verdict("deny", ["Plan mode is read-only: commands that may change files or state are not run. Finish with a plan (todo); the user switches mode to act."]);
    }
    const outside = outsideReasons(ask.paths ?? [], cwd);
    if (screen.level === "dangerous") return verdict("ask", [...screen.reasons, ...outside], screen.keys);
    return outside.length > 0 ? verdict("ask", outside, [], true) : verdict("allow");
  }

  if (mode === "dont_ask") return verdict("allow");
  if (ask.mcp) {
    const { server, tool, readOnly, confirm } = ask.mcp;
    if (mode === "plan" && !readOnly) {
      return verdict("deny", [`Plan mode is read-only: "${tool}" on the MCP server "${server}" is not marked read-only, so it is not run. Put it in the plan; the user switches mode to act.`]);
    }
    return confirm ? verdict("ask", [`the "${server}" server's configuration asks for confirmation of ${tool}`]) : verdict("allow");
  }
  const paths = ask.paths ?? [];
  const sensitive = paths.map(sensitiveReason).filter((reason): reason is string => reason !== undefined);
  const outside = outsideReasons(paths, cwd);
  const flagged = [...sensitive.map((reason) => `sensitive path: ${reason}`), ...outside];

  switch (ask.action) {
    case "read":
      return flagged.length > 0 ? verdict("ask", flagged, [], true) : verdict("allow");
    case "edit":
    case "delete":
      if (mode === "plan") return verdict("deny", ["Plan mode is read-only: files are not changed. Describe the change in the plan instead; the user switches mode to act."]);
      if (flagged.length > 0) return verdict("ask", flagged, [], true);
      return mode === "accept_edits" ? verdict("allow") : verdict("ask", ["edits are approved one by one in the default mode"]);
    default:
      return verdict("ask", flagged);
  }
}

function outsideReasons(paths: string[], cwd: string): string[] {
  return paths.filter((target) => !insideWorkspace(cwd, target)).map((target) => `outside the workspace: ${target}`);
}
