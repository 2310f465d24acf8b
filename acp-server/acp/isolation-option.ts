// The "Isolation: workspace | worktree" config option (issue 32): offered on a new session while
// it can still switch (before its first prompt) and only in a git checkout, so every option a
// client is shown can be chosen. Picking "worktree" does what `_meta["hermes/worktree"]: true`
// does on session/new; "workspace" moves the session back (app/session-hub.ts, reisolate).
// After the first prompt the option is left out of the list: the 1.21 schema has no read-only
// option, and a value the client could pick but that would be refused is worse than none.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import { existsSync } from "node:fs";
import path from "node:path";
import type { LiveSession } from "../runtime/live-session";
import { invalidParams } from "../util/agent-error";

export const ISOLATION_OPTION = "isolation";
const WORKSPACE = "workspace";
const WORKTREE = "worktree";

/** The option for this session: none once it cannot switch, or outside a git checkout. */
export function isolationOptions(session: LiveSession): acp.SessionConfigOption[] {
  if (!session.isolationSwitchable || !inGitCheckout(session.agent.cwd)) return [];
  return [
    {
      id: ISOLATION_OPTION,
      name: "Isolation",
      description: "Where this chat works; it can change only before the first prompt",
      type: "select",
      currentValue: session.worktree ? WORKTREE : WORKSPACE,
      options: [
        { value: WORKSPACE, name: "Workspace", description: "The folder you opened" },
        { value: WORKTREE, name: "Worktree", description: "A git worktree of its own on a new hermes/… branch, outside your tree; /worktree apply brings the work back" },
      ],
    },
  ];
}

/** The request `value` stands for: a worktree (`true`), or the workspace (`false`). */
export function isolationRequest(value: unknown): true | false {
  if (value === WORKTREE) return true;
  if (value === WORKSPACE) return false;
  throw invalidParams(`${ISOLATION_OPTION} is "${WORKSPACE}" or "${WORKTREE}"`, { configId: ISOLATION_OPTION, value });
}

/**
 * Whether `folder` lies in a git checkout: a `.git` (folder, or file in a worktree) in it or a
 * folder above. A few stats rather than a git process: this runs on every session/new.
 */
function inGitCheckout(folder: string): boolean {
  for (let current = path.resolve(folder); ; current = path.dirname(current)) {
    if (existsSync(path.join(current, ".git"))) return true;
    if (path.dirname(current) === current) return false;
  }
}
