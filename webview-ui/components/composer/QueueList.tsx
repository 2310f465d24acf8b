// Prompts typed while a turn runs wait here (the host sends them in order); each can be removed.
import type { QueuedPrompt } from "../../state/types";
import { post } from "../../bridge/vscode-api";
import { Icon } from "../icons";
import { memo } from "../memo";

export const QueueList = memo(function QueueList({ queue }: { queue: QueuedPrompt[] }) {
  if (queue.length === 0) return null;
  return (
    <section class="queue" aria-label="Queued messages">
      <div class="queue-title muted">Queued · sent when the current turn ends</div>
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
