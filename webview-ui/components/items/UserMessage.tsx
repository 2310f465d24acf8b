// A prompt the user sent: its text, its attachments as chips, and "Fork from here", which
// starts a new session keeping the conversation up to and including this turn (after an inline
// confirmation: a fork replaces the open chat). "Restore checkpoint" and "Edit and resend" are
// in MessageCheckpointActions.tsx.
import { useRef, useState } from "preact/hooks";
import type { UserItem } from "../../../common/panel-state/types";
import { post } from "../../bridge/vscode-api";
import { Icon } from "../icons";
import { InlineConfirm } from "../InlineConfirm";
import { AttachmentChip } from "../composer/AttachmentChip";
import { CheckpointButtons, CheckpointPanel, type CheckpointAction } from "./MessageCheckpointActions";

export function UserMessage({ item }: { item: UserItem }) {
  const [confirming, setConfirming] = useState(false);
  const forkButton = useRef<HTMLButtonElement>(null);
  const [action, setAction] = useState<CheckpointAction>();
  const actions = useRef<HTMLDivElement>(null);
  const closeAction = () => {
    const was = action;
    setAction(undefined);
    // Focus back to the button that opened it (it may be gone: then nothing to return to).
    actions.current?.querySelector<HTMLButtonElement>(`[data-testid=${was === "restore" ? "restore-checkpoint" : "edit-resend"}]`)?.focus();
  };
  return (
    <div class="msg-user-wrap">
      <div class="msg msg-user" data-testid="msg-user">
        <div ref={actions} class={`msg-actions${confirming || action ? " shown" : ""}`}>
          <CheckpointButtons item={item} open={action} onOpen={(next) => (setConfirming(false), setAction(next))} />
          <button
            ref={forkButton}
            type="button"
            class="icon-button subtle"
            data-testid="fork"
            title="Fork from here"
            aria-label="Fork a new chat from this message"
            aria-expanded={confirming}
            onClick={() => (setAction(undefined), setConfirming(true))}
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
      {action && <CheckpointPanel item={item} action={action} onClose={closeAction} />}
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
