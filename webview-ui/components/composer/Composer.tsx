// The prompt box. Enter sends, Shift+Enter adds a line, Up in an empty box recalls the last
// prompt, Esc stops a running turn. Typing "/" offers commands, "@" offers workspace files.
// Sending while a turn runs is allowed: the host queues it.
import type { AvailableCommand, SessionConfigOption, SessionModeState } from "../../../common/acp-types";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import type { Attachment } from "../../../common/panel-state/types";
import { useStore } from "../../bridge/external-store";
import { onHostEvent } from "../../bridge/host-events";
import { rememberSent, updateView, viewStore } from "../../bridge/view-state";
import { post } from "../../bridge/vscode-api";
import { matchCommands, mentionAt, moveSelection, insertMention, slashQuery } from "../../lib/completion";
import { Icon } from "../icons";
import { memo } from "../memo";
import { Pickers } from "../Pickers";
import { AttachmentChip } from "./AttachmentChip";
import { pasteImages } from "./paste-image";
import { Suggestions, SUGGESTIONS_ID, type Suggestion } from "./Suggestions";
import { useMentionResults } from "./use-mentions";
import { isSteerKey, SteerButton } from "./SteerButton";

interface Props {
  running: boolean;
  commands: AvailableCommand[];
  attachments: Attachment[];
  /** The last prompt in the transcript, recalled by Up when this panel has sent none. */
  lastPrompt?: string;
  disabled: boolean;
  modes?: SessionModeState;
  configOptions: SessionConfigOption[];
}

const MAX_HEIGHT = 240;

export const Composer = memo(function Composer({ running, commands, attachments, lastPrompt, disabled, modes, configOptions }: Props) {
  const draft = useStore(viewStore, (v) => v.draft);
  const box = useRef<HTMLTextAreaElement>(null);
  const [caret, setCaret] = useState(draft.length);
  const [selected, setSelected] = useState(0);
  const [dismissed, setDismissed] = useState<string | undefined>(undefined);
  const recall = useRef(-1);

  const setDraft = (text: string, nextCaret = text.length) => {
    updateView(() => ({ draft: text }));
    setCaret(nextCaret);
    requestAnimationFrame(() => box.current?.setSelectionRange(nextCaret, nextCaret));
  };

  // What the popup offers, from the text around the caret.
  const slash = slashQuery(draft);
  const mention = slash === undefined ? mentionAt(draft, caret) : undefined;
  const files = useMentionResults(mention?.query);
  const commandMatches = useMemo(() => (slash === undefined ? [] : matchCommands(commands, slash)), [commands, slash]);
  const context = slash !== undefined ? `/${slash}` : mention ? `@${mention.query}` : undefined;
  const open = context !== undefined && context !== dismissed;
  const suggestions: Suggestion[] = !open
    ? []
    : slash !== undefined
      ? commandMatches.map((c) => ({ key: c.name, label: `/${c.name}`, detail: c.input?.hint ? `${c.description} · ${c.input.hint}` : c.description }))
      : files.map((f) => ({ key: f.uri, label: f.path.split("/").pop() ?? f.path, detail: f.path }));
  const active = Math.min(selected, Math.max(0, suggestions.length - 1));
  useEffect(() => setSelected(0), [context]);

  const pick = (index: number) => {
    if (slash !== undefined) {
      const command = commandMatches[index];
      if (command) setDraft(`/${command.name} `);
    } else if (mention) {
      const file = files[index];
      if (!file) return;
      post({ type: "mention", uri: file.uri, path: file.path });
      const next = insertMention(draft, mention.start, caret, file.path.split("/").pop() ?? file.path);
      setDraft(next.text, next.caret);
    }
  };

  const send = () => {
    const text = draft.trim();
    if (!text && attachments.length === 0) return;
    post({ type: "prompt", text });
    if (text) rememberSent(text);
    recall.current = -1;
    setDraft("");
  };

  // While a turn runs: guidance for it now, instead of a prompt after it (SteerButton.tsx).
  const steer = () => {
    const text = draft.trim();
    if (!text) return;
    post({ type: "steer", text });
    rememberSent(text);
    recall.current = -1;
    setDraft("");
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.isComposing) return;
    if (running && isSteerKey(e)) {
      e.preventDefault();
      steer();
      return;
    }
    if (suggestions.length > 0) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        setSelected(moveSelection(active, e.key === "ArrowDown" ? 1 : -1, suggestions.length));
        return;
      }
      if (e.key === "Tab" || (e.key === "Enter" && !e.shiftKey)) {
        e.preventDefault();
        pick(active);
        return;
      }
      if (e.key === "Escape") {
        e.preventDefault();
        e.stopPropagation();
        setDismissed(context);
        return;
      }
    }
    if (e.key === "Enter" && !e.shiftKey && !e.altKey) {
      e.preventDefault();
      send();
    } else if (e.key === "ArrowUp" && (draft === "" || recall.current >= 0) && caretAtStart()) {
      const sent = viewStore.get().sent;
      const history = sent.length > 0 ? sent : lastPrompt ? [lastPrompt] : [];
      const next = recall.current + 1;
      if (next < history.length) {
        e.preventDefault();
        recall.current = next;
        setDraft(history[history.length - 1 - next]);
      }
    } else if (e.key === "Escape" && running) {
      e.preventDefault();
      post({ type: "cancel" });
    }
  };
  const caretAtStart = () => (box.current?.selectionStart ?? 0) === 0 || draft === "" || recall.current >= 0;

  // Grow with the text up to a limit, then scroll.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, MAX_HEIGHT)}px`;
  }, [draft]);

  // "Explain / fix selection" and the focus command put text here.
  useEffect(
    () =>
      onHostEvent((event) => {
        if (event.type !== "focusComposer") return;
        if (event.text !== undefined) setDraft(event.text);
        box.current?.focus();
      }),
    [],
  );

  const canSend = draft.trim() !== "" || attachments.length > 0;
  return (
    <div class="composer-wrap">
      <Suggestions items={suggestions} selected={active} onPick={pick} title={slash !== undefined ? "Commands" : "Files"} />
      <div class={`composer${disabled ? " disabled" : ""}`}>
        {attachments.length > 0 && (
          <div class="chips composer-chips">
            {attachments.map((a) => (
              <AttachmentChip
                key={a.id}
                kind={a.kind}
                name={a.name}
                detail={a.kind === "selection" ? `L${a.startLine}–${a.endLine}` : undefined}
                onRemove={() => post({ type: "removeAttachment", id: a.id })}
              />
            ))}
          </div>
        )}
        <textarea
          ref={box}
          data-testid="composer"
          rows={1}
          value={draft}
          placeholder={running ? "Steer (Ctrl+Enter) or queue (Enter)…" : "Ask Hermes — / for commands, @ for files"}
          aria-label="Message Hermes"
          aria-autocomplete="list"
          aria-controls={suggestions.length > 0 ? SUGGESTIONS_ID : undefined}
          aria-activedescendant={suggestions.length > 0 ? `${SUGGESTIONS_ID}-${active}` : undefined}
          onInput={(e) => {
            const el = e.currentTarget;
            updateView(() => ({ draft: el.value }));
            setCaret(el.selectionStart);
            setDismissed(undefined);
            recall.current = -1;
          }}
          onKeyDown={onKeyDown}
          onKeyUp={(e) => setCaret(e.currentTarget.selectionStart)}
          onClick={(e) => setCaret(e.currentTarget.selectionStart)}
          onPaste={(e) => {
            if (pasteImages(e.clipboardData)) e.preventDefault();
          }}
        />
        <div class="composer-bar">
          <button type="button" class="icon-button subtle" title="Add the editor selection" aria-label="Attach the editor selection" onClick={() => post({ type: "attach", what: "selection" })}>
            <Icon name="selection" />
          </button>
          <button type="button" class="icon-button subtle" title="Add the active file" aria-label="Attach the active file" onClick={() => post({ type: "attach", what: "activeFile" })}>
            <Icon name="paperclip" />
          </button>
          <Pickers modes={modes} configOptions={configOptions} />
          <span class="spacer" />
          {running && (
            <button type="button" class="icon-button stop" data-testid="stop" title="Stop (Esc)" aria-label="Stop the agent" onClick={() => post({ type: "cancel" })}>
              <Icon name="stop" />
            </button>
          )}
          {running && <SteerButton disabled={!draft.trim()} onSteer={steer} />}
          <button type="button" class="send" data-testid="send" title={running ? "Queue: send after this turn (Enter)" : "Send (Enter)"} aria-label={running ? "Queue message" : "Send message"} disabled={!canSend} onClick={send}>
            <Icon name="send" />
          </button>
        </div>
      </div>
    </div>
  );
});
