// The top bar: session title, the branch of a chat that works in its own worktree, and agent
// connection status (with "Restart agent" when it is down). New chat and history are VS Code's own title-bar actions (view/title and editor/title
// menus in package.json), so they are not repeated here.
import type { ChatState } from "../../common/panel-state/types";
import { post } from "../bridge/vscode-api";
import { Icon, Spinner } from "./icons";
import { memo } from "./memo";

interface Props {
  title?: string;
  connection: ChatState["connection"];
  historyOpen: boolean;
  knowledgeOpen?: boolean;
  /** The chat works in its own git worktree: its branch shows beside the title. */
  worktree?: { branch: string; path: string };
  /** A turn runs: the worktree's changes are still moving (apply and discard wait). */
  running?: boolean;
}

const connectionText: Record<string, string> = {
  starting: "Starting agent…",
  restarting: "Restarting agent…",
  failed: "Agent stopped",
  stopped: "Agent stopped",
  ready: "Connected",
};

export const Header = memo(function Header({ title, connection, historyOpen, knowledgeOpen = false, worktree, running = false }: Props) {
  const down = connection.status === "failed" || connection.status === "stopped";
  const busy = connection.status === "starting" || connection.status === "restarting";
  return (
    <header class="header">
      <div class="header-title truncate" title={title}>
        {historyOpen ? "History" : knowledgeOpen ? "What Hermes knows" : title || "New chat"}
      </div>
      {worktree && !historyOpen && !knowledgeOpen && (
        <span class="worktree-badge" data-testid="worktree-badge" title={`This chat works in its own git worktree: branch ${worktree.branch} in ${worktree.path}`}>
          <Icon name="fork" />
          <span class="truncate">{worktree.branch}</span>
        </span>
      )}
      {worktree && !historyOpen && !knowledgeOpen && (
        <span class="worktree-actions">
          <button type="button" class="button small primary" data-testid="worktree-apply" disabled={running} title="Review this chat's changes hunk by hunk and apply what you accept to your checkout" onClick={() => post({ type: "worktreeApply" })}>
            Review &amp; apply
          </button>
          <button type="button" class="button small secondary" data-testid="worktree-discard" disabled={running} title="Remove this chat's worktree and branch (Hermes asks first)" onClick={() => post({ type: "worktreeDiscard" })}>
            Discard
          </button>
        </span>
      )}
      <span
        class={`connection connection-${connection.status}`}
        data-testid="connection-status"
        data-status={connection.status}
        role="status"
        title={connection.message ?? connectionText[connection.status]}
      >
        {busy ? <Spinner /> : <span class="connection-dot" aria-hidden="true" />}
        <span class={connection.status === "ready" ? "sr-only" : "connection-text"}>{connectionText[connection.status] ?? connection.status}</span>
      </span>
      {down && (
        <button type="button" class="button small primary" onClick={() => post({ type: "restartAgent" })}>
          <Icon name="restart" /> Restart agent
        </button>
      )}
    </header>
  );
});
