// Prompts typed while a turn runs: the agent's queue (with Hermes, the list `/queue` shows), in the
// order they run; each can be removed, or all at once.
import type { QueuedPrompt } from "../../../common/panel-state/types";
import { post } from "../../bridge/vscode-api";
import { Icon } from "../icons";
import { memo } from "../memo";

export const QueueList = memo(function QueueList({ queue }: { queue: QueuedPrompt[] }) {
  if (queue.length === 0) return null;
  return (
    <section class="queue" aria-label="Queued messages">
      <div class="queue-head">
        <span class="queue-title muted">Queued · {queue.length === 1 ? "runs" : "run in order"} when the current turn ends</span>
        {queue.length > 1 ? (
          <button type="button" class="link-button" data-testid="clear-queue" aria-label="Clear the queue: drop every queued message" onClick={() => post({ type: "clearQueue" })}>
            Clear all
          </button>
        ) : null}
      </div>
      <ul>
        {queue.map((prompt) => (
          <li key={prompt.id} class="queue-item" data-testid="queued-prompt">
            <Icon name="clock" />
            <span class="truncate">{prompt.text || `${prompt.attachments.length} attachment(s)`}</span>
            <button type="button" class="icon-button subtle" aria-label={`Remove queued message: ${prompt.text.slice(0, 60)}`} onClick={() => post({ type: "cancelQueued", id: prompt.id })}>
              <Icon name="x" />
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
});
