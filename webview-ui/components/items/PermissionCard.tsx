// The agent asks before acting: one button per option the agent offered, in its order and with
// its own names (two options can share a kind, e.g. "for this session" and "saved to config",
// so a label by kind alone could not tell them apart). Digits answer from the keyboard
// (lib/permission-keys.ts), and "Reject with a reason…" lets the user tell the model what to do
// instead. Once answered (or cancelled with the turn) the card shows the outcome instead.
// An edit decided hunk by hunk (item.hunks) shows its hunks to accept or reject one by one
// (EditDecision.tsx) and sits inside its tool call's card (`embedded`): one card per edit.
import type { PermissionOption } from "../../../common/acp-types";
import { visibleControls } from "../../../common/visible-controls";
import { useEffect, useRef, useState } from "preact/hooks";
import type { PermissionItem } from "../../../common/panel-state/types";
import { post } from "../../bridge/vscode-api";
import { enterSends } from "../../lib/enter-sends";
import { splitPermissionText } from "../../lib/permission-text";
import { Icon } from "../icons";
import { EditHunks, editOptionLabel, editOutcomeText, OpenEditDiff } from "./EditDecision";
import { OutputPre } from "./OutputPre";
import { ToolContent } from "./ToolContent";
import { useCardDigits } from "./use-card-digits";

const kindLabel: Record<string, string> = {
  allow_once: "Allow once",
  allow_session: "Allow this session",
  allow_always: "Always allow",
  reject_once: "Deny",
  reject_always: "Always deny",
};
export function optionLabel(option: PermissionOption): string {
  // A name can quote the command or file it allows: shown as it is (common/visible-controls.ts).
  return visibleControls(option.name.trim()) || kindLabel[option.kind] || option.optionId;
}

export function PermissionCard({ item, embedded = false }: { item: PermissionItem; embedded?: boolean }) {
  const options = item.options;
  const chosen = item.options.find((o) => o.optionId === item.outcome);
  const waiting = item.outcome === undefined;
  const card = useRef<HTMLDivElement>(null);
  const [explaining, setExplaining] = useState(false);
  const rejectOption = options.find((o) => o.kind === "reject_once") ?? options.find((o) => o.kind.startsWith("reject"));
  const answer = (option: PermissionOption, reason?: string) => post({ type: "permission", id: item.id, optionId: option.optionId, ...(reason ? { reason } : {}) });
  useCardDigits(card, waiting && !explaining, options.length, (index) => {
    const option = options[index];
    if (option) answer(option);
  });
  const hunks = item.hunks;
  const label = (option: PermissionOption) => (hunks ? editOptionLabel(option, hunks, optionLabel(option)) : optionLabel(option));

  return (
    <div
      ref={card}
      class={`${embedded ? "edit-decision" : "card"} permission-card${waiting ? " waiting" : ""}${hunks ? " edit-card" : ""}`}
      data-testid="permission-card"
      data-embedded={embedded ? "true" : undefined}
      data-outcome={item.outcome ?? ""}
      role="group"
      aria-label={`Permission: ${item.title}`}
      aria-keyshortcuts={waiting ? options.map((_, i) => String(i + 1)).join(" ") : undefined}
      tabIndex={waiting ? 0 : undefined}
    >
      <div class="permission-head">
        <Icon name={waiting ? "warning" : chosen?.kind.startsWith("allow") ? "check" : "x"} />
        <div>
          <div class="permission-kicker">{waiting ? (hunks ? "Review this edit" : "Permission needed") : hunks ? "Edit" : "Permission"}</div>
          {/* What is approved, as it is: a control character or a bidi override in it shows, it cannot reorder or hide text. */}
          {!embedded && <div class="permission-title">{visibleControls(item.title)}</div>}
        </div>
      </div>
      {waiting && item.content?.length ? (
        <div class="permission-content">
          {item.content.map((content, i) =>
            content.type === "content" && content.content.type === "text" ? (
              <PermissionText key={i} text={content.content.text} expandKey={`${item.toolCallId}#${1000 + i}`} />
            ) : hunks && content.type === "diff" ? null : (
              <ToolContent key={i} content={content} toolCallId={item.toolCallId} index={1000 + i} />
            ),
          )}
        </div>
      ) : null}
      {waiting && hunks && <EditHunks item={{ ...item, hunks }} waiting={waiting} />}
      {waiting && !explaining && (
        <div class="button-row permission-options">
          {options.map((option, i) => (
            <button
              key={option.optionId}
              type="button"
              class={`button ${option.kind.startsWith("allow") ? (i === 0 ? "primary" : "secondary") : "secondary danger"}`}
              data-option-kind={option.kind}
              aria-keyshortcuts={i < 9 ? String(i + 1) : undefined}
              onClick={() => answer(option)}
            >
              {i < 9 && (
                <kbd class="option-key" aria-hidden="true">
                  {i + 1}
                </kbd>
              )}
              <span class="option-label">{label(option)}</span>
            </button>
          ))}
          {hunks && <OpenEditDiff id={item.id} />}
          {rejectOption && (
            <button type="button" class="link-button" data-testid="reject-with-reason" onClick={() => setExplaining(true)}>
              No, and tell Hermes what to do instead…
            </button>
          )}
        </div>
      )}
      {waiting && explaining && rejectOption && (
        <RejectReason
          onSend={(reason) => answer(rejectOption, reason)}
          onCancel={() => {
            setExplaining(false);
            card.current?.focus();
          }}
        />
      )}
      {!waiting && (
        <div class="outcome">
          {item.outcome === "cancelled"
            ? (item.note ?? "Cancelled")
            : chosen
              ? hunks && chosen.kind.startsWith("allow")
                ? editOutcomeText(hunks, chosen, outcomeText(chosen))
                : outcomeText(chosen)
              : item.outcome}
          {item.reason && <span class="outcome-reason"> — “{item.reason}”</span>}
        </div>
      )}
    </div>
  );
}

/** The text the model gets with the rejection. Enter sends, Shift+Enter adds a line, Escape backs out. */
function RejectReason({ onSend, onCancel }: { onSend: (reason: string) => void; onCancel: () => void }) {
  const [text, setText] = useState("");
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => box.current?.focus(), []);
  const send = () => {
    if (text.trim()) onSend(text.trim());
  };
  return (
    <div class="reject-reason">
      <textarea
        ref={box}
        data-testid="reject-reason"
        rows={2}
        value={text}
        placeholder="What should Hermes do instead?"
        aria-label="Why you reject this, for Hermes"
        onInput={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (enterSends(e, send) || e.isComposing) return;
          if (e.key === "Escape") {
            // Backs out of the reason only; the turn keeps waiting for an answer.
            e.preventDefault();
            e.stopPropagation();
            onCancel();
          }
        }}
      />
      <div class="button-row">
        <button type="button" class="button small secondary danger" data-testid="reject-reason-send" disabled={!text.trim()} onClick={send}>
          Reject and tell Hermes
        </button>
        <button type="button" class="button small secondary" onClick={onCancel}>
          Back
        </button>
      </div>
    </div>
  );
}

function outcomeText(option: PermissionOption): string {
  switch (option.kind as string) {
    case "allow_once":
      return "Allowed once";
    case "allow_session":
      return "Allowed for this session";
    case "allow_always":
      // Hermes's ids say which is which; another agent's name may (a name can quote a file called "session").
      if (option.optionId === "allow_session") return "Allowed for this session";
      return option.optionId !== "allow_always" && /for this session/i.test(option.name) ? "Allowed for this session" : "Always allowed";
    case "reject_once":
      return "Rejected by you";
    case "reject_always":
      return "Always rejected";
    default:
      return option.name;
  }
}

/**
 * A permission's explanation: the command (a fenced block) stays code, and the words around it
 * (why it needs approval) read as prose, not as part of a monospace block.
 */
function PermissionText({ text, expandKey }: { text: string; expandKey: string }) {
  return (
    <>
      {splitPermissionText(visibleControls(text)).map((part, i) =>
        part.kind === "code" ? (
          <OutputPre key={i} text={part.text} expandKey={`${expandKey}:${i}`} />
        ) : (
          <p key={i} class="permission-reason" data-testid="permission-reason">
            {part.text}
          </p>
        ),
      )}
    </>
  );
}
