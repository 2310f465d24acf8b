// A past prompt's way back (issue 16): "Restore checkpoint" on a prompt whose turn changed files
// (files only, or files and conversation), and "Edit and resend" on every prompt. Both end in
// the agent's own permission request with a diff per file before any file changes, so the
// preview is the one /rollback shows everywhere; the conversation is never cut, only forked
// (the old branch stays in History). The host does the work (extension/checkpoint-actions.ts).
import { useEffect, useRef, useState } from "preact/hooks";
import { chatStore } from "../../bridge/chat-store";
import { useStore } from "../../bridge/external-store";
import { post } from "../../bridge/vscode-api";
import { enterSends } from "../../lib/enter-sends";
import { checkpointOf, restoreTargetFrom, type CheckpointTurn } from "../../../common/panel-state/checkpoints";
import type { UserItem } from "../../../common/panel-state/types";
import { Icon } from "../icons";

export type CheckpointAction = "restore" | "edit";

/** What this prompt offers now (nothing while a turn runs: a restore waits for the files to settle). */
function useOffers(item: UserItem) {
  const checkpoints = useStore(chatStore, (state) => state.checkpoints);
  const running = useStore(chatStore, (state) => state.turn.running || state.loading);
  const isTurn = !item.command && item.turn >= 1;
  return {
    checkpoints,
    restore: isTurn && !running && checkpointOf(checkpoints, item.turn) !== undefined,
    edit: isTurn && !running && checkpoints?.supported === true,
  };
}

/** The buttons in the message's hover bar. */
export function CheckpointButtons({ item, open, onOpen }: { item: UserItem; open?: CheckpointAction; onOpen: (action: CheckpointAction) => void }) {
  const offers = useOffers(item);
  return (
    <>
      {offers.restore && (
        <button
          type="button"
          class="icon-button subtle"
          data-testid="restore-checkpoint"
          title="Restore checkpoint"
          aria-label="Restore the checkpoint taken before this message"
          aria-expanded={open === "restore"}
          onClick={() => onOpen("restore")}
        >
          <Icon name="history" />
        </button>
      )}
      {offers.edit && (
        <button
          type="button"
          class="icon-button subtle"
          data-testid="edit-resend"
          title="Edit and resend"
          aria-label="Edit this message and send it again from here"
          aria-expanded={open === "edit"}
          onClick={() => onOpen("edit")}
        >
          <Icon name="pencil" />
        </button>
      )}
    </>
  );
}

/** The open action's panel under the message. */
export function CheckpointPanel({ item, action, onClose }: { item: UserItem; action: CheckpointAction; onClose: () => void }) {
  const offers = useOffers(item);
  if (action === "restore" && offers.restore) {
    const checkpoint = checkpointOf(offers.checkpoints, item.turn);
    return checkpoint ? <RestoreChoices item={item} checkpoint={checkpoint} onClose={onClose} /> : null;
  }
  if (action === "edit" && offers.edit) {
    const target = restoreTargetFrom(offers.checkpoints, item.turn);
    const filesOff = offers.checkpoints?.enabled === false ? (offers.checkpoints.reason ?? "checkpoints are off") : undefined;
    return <EditAndResend item={item} target={target} filesOff={filesOff} onClose={onClose} />;
  }
  return null;
}

function RestoreChoices({ item, checkpoint, onClose }: { item: UserItem; checkpoint: CheckpointTurn; onClose: () => void }) {
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => first.current?.focus(), []);
  const choose = (conversation: boolean) => {
    onClose();
    post({ type: "restoreCheckpoint", turn: item.turn, conversation });
  };
  return (
    <div class="inline-confirm checkpoint-panel" role="group" aria-label="Restore checkpoint" data-testid="restore-choices" onKeyDown={escapeCloses(onClose)}>
      <span class="inline-confirm-question">
        Restore the checkpoint taken before this message? {changedText(checkpoint)} You will see the diff of every file and confirm before anything changes.
      </span>
      <span class="button-row">
        <button ref={first} type="button" class="button small primary" data-testid="restore-files" onClick={() => choose(false)}>
          Files only
        </button>
        <button type="button" class="button small secondary" data-testid="restore-files-conversation" onClick={() => choose(true)} title="The files, then the chat rewound to before this message in a new branch (this chat stays in History)">
          Files and conversation
        </button>
        <button type="button" class="button small secondary" data-testid="restore-cancel" onClick={onClose}>
          Cancel
        </button>
      </span>
    </div>
  );
}

function EditAndResend({ item, target, filesOff, onClose }: { item: UserItem; target?: CheckpointTurn; filesOff?: string; onClose: () => void }) {
  const [text, setText] = useState(item.text);
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);
  const send = () => {
    if (!text.trim()) return;
    onClose();
    post({ type: "editResend", turn: item.turn, text });
  };
  const files = filesOff
    ? `Files will not be restored: ${filesOff}.`
    : target
      ? "The files go back to how they were before this message: you will see the diff and confirm first."
      : "No file has changed since this message, so only the chat is rewound.";
  return (
    <div class="checkpoint-panel edit-resend" role="group" aria-label="Edit and resend" data-testid="edit-resend-panel" onKeyDown={escapeCloses(onClose)}>
      <textarea
        ref={box}
        class="edit-resend-text"
        data-testid="edit-resend-text"
        rows={Math.min(8, Math.max(2, text.split("\n").length))}
        value={text}
        aria-label="The message to send instead"
        onInput={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => enterSends(e, send)}
      />
      <p class="checkpoint-note" data-testid="edit-resend-note">
        Sends this in a new branch of the chat from before this message; this chat stays in History. {files}
        {item.attachments.length > 0 && " Its attachments are not sent again."}
      </p>
      <span class="button-row">
        <button type="button" class="button small primary" data-testid="edit-resend-send" disabled={!text.trim()} onClick={send}>
          Send
        </button>
        <button type="button" class="button small secondary" data-testid="edit-resend-cancel" onClick={onClose}>
          Cancel
        </button>
      </span>
    </div>
  );
}

function changedText(checkpoint: CheckpointTurn): string {
  const count = checkpoint.changedCount;
  if (count === undefined) return "";
  const names = (checkpoint.changed ?? []).slice(0, 3).join(", ");
  const more = count > 3 ? ", …" : "";
  return `That turn changed ${count} file${count === 1 ? "" : "s"}${names ? ` (${names}${more})` : ""}.`;
}

/** Escape backs out of the panel only; it must not also stop a turn. */
function escapeCloses(onClose: () => void) {
  return (e: KeyboardEvent) => {
    if (e.key !== "Escape") return;
    e.preventDefault();
    e.stopPropagation();
    onClose();
  };
}
