// A prompt the user sent: its text, its attachments as chips, and "Fork from here", which
// starts a new session keeping the conversation up to and including this turn.
import type { UserItem } from "../../state/types";
import { post } from "../../bridge/vscode-api";
import { Icon } from "../icons";
import { AttachmentChip } from "../composer/AttachmentChip";

export function UserMessage({ item }: { item: UserItem }) {
  return (
    <div class="msg msg-user" data-testid="msg-user">
      <div class="msg-actions">
        <button
          type="button"
          class="icon-button subtle"
          title="Fork from here"
          aria-label="Fork a new chat from this message"
          onClick={() => post({ type: "forkSession", turns: item.turn })}
        >
          <Icon name="fork" />
        </button>
      </div>
      <div class="msg-user-bubble">
        {item.attachments.length > 0 && (
          <div class="chips">
            {item.attachments.map((a, i) => (
              <AttachmentChip key={i} kind={a.kind} name={a.name} />
            ))}
          </div>
        )}
        <div class="msg-user-text">{item.text}</div>
      </div>
    </div>
  );
}
