// An inline "Do this? [Do it] [Cancel]" for actions that branch or destroy (fork, delete): no
// modal, keyboard first. The confirm button takes focus, Escape or Cancel backs out and gives
// focus back to where the action started.
import { useEffect, useRef } from "preact/hooks";

interface Props {
  question: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  danger?: boolean;
  testId?: string;
}

export function InlineConfirm({ question, confirmLabel, onConfirm, onCancel, danger = false, testId }: Props) {
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => confirm.current?.focus(), []);
  return (
    <div
      class="inline-confirm"
      role="group"
      aria-label={question}
      data-testid={testId}
      onKeyDown={(e) => {
        if (e.key !== "Escape") return;
        // Escape here backs out of the question; it must not also stop the running turn.
        e.preventDefault();
        e.stopPropagation();
        onCancel();
      }}
    >
      <span class="inline-confirm-question">{question}</span>
      <span class="button-row">
        <button ref={confirm} type="button" class={`button small ${danger ? "secondary danger" : "primary"}`} data-testid="confirm-yes" onClick={onConfirm}>
          {confirmLabel}
        </button>
        <button type="button" class="button small secondary" data-testid="confirm-no" onClick={onCancel}>
          Cancel
        </button>
      </span>
    </div>
  );
}
