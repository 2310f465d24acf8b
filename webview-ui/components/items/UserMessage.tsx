// A prompt the user sent: its text, its attachments as chips, and "Fork from here", which
// starts a new session keeping the conversation up to and including this turn (after an inline
// confirmation: a fork replaces the open chat).
import { useRef, useState } from "preact/hooks";
import type { UserItem } from "../../state/types";
import { post } from "../../bridge/vscode-api";
import { Icon } from "../icons";
import { InlineConfirm } from "../InlineConfirm";
import { AttachmentChip } from "../composer/AttachmentChip";

export function UserMessage({ item }: { item: UserItem }) {
  const [confirming, setConfirming] = useState(false);
  const forkButton = useRef<HTMLButtonElement>(null);
  return (
    <div class="msg-user-wrap">
      <div class="msg msg-user" data-testid="msg-user">
        <div class={`msg-actions${confirming ? " shown" : ""}`}>
          <button
            ref={forkButton}
            type="button"
            class="icon-button subtle"
            data-testid="fork"
            title="Fork from here"
            aria-label="Fork a new chat from this message"
            aria-expanded={confirming}
            onClick={() => setConfirming(true)}
          >
            <Icon name="fork" />
          </button>
        </div>
        <div class="msg-user-bubble">
          <span class="sr-only">You said:</span>
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
      {confirming && (
        <InlineConfirm
          testId="fork-confirm"
          question="Fork this chat from here? The fork opens in place of this chat (it stays in History)."
          confirmLabel="Fork"
          onConfirm={() => {
            setConfirming(false);
            post({ type: "forkSession", turns: item.turn });
          }}
          onCancel={() => {
            setConfirming(false);
            forkButton.current?.focus();
          }}
        />
      )}
    </div>
  );
}
