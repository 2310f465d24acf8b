// The top bar: session title and agent connection status (with "Restart agent" when it is
// down). New chat and history are VS Code's own title-bar actions (view/title and editor/title
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
}

const connectionText: Record<string, string> = {
  starting: "Starting agent…",
  restarting: "Restarting agent…",
  failed: "Agent stopped",
  stopped: "Agent stopped",
  ready: "Connected",
};

export const Header = memo(function Header({ title, connection, historyOpen, knowledgeOpen = false }: Props) {
  const down = connection.status === "failed" || connection.status === "stopped";
  const busy = connection.status === "starting" || connection.status === "restarting";
  return (
    <header class="header">
      <div class="header-title truncate" title={title}>
        {historyOpen ? "History" : knowledgeOpen ? "What Hermes knows" : title || "New chat"}
      </div>
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
