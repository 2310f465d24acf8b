// The agent asks the user a question (elicitation/create from the clarify tool): the question,
// then either one button per choice (title and description; digits 1–9 pick, as on permission
// cards) or a text box (Enter sends). "Skip" declines: the agent decides without an answer. Once
// answered, declined or cancelled with the turn, the card shows the outcome instead.
import { useEffect, useRef, useState } from "preact/hooks";
import type { QuestionItem } from "../../../common/panel-state/types";
import { post } from "../../bridge/vscode-api";
import { enterSends } from "../../lib/enter-sends";
import { Icon } from "../icons";
import { useCardDigits } from "./use-card-digits";

export function QuestionCard({ item }: { item: QuestionItem }) {
  const waiting = item.outcome === undefined;
  const card = useRef<HTMLDivElement>(null);
  const answer = (text?: string) => post({ type: "question", id: item.id, ...(text !== undefined ? { answer: text } : {}) });
  const choices = item.choices ?? [];
  useCardDigits(card, waiting && choices.length > 0, choices.length, (index) => answer(choices[index]?.value));
  return (
    <div
      ref={card}
      class={`card question-card${waiting ? " waiting" : ""}`}
      data-testid="question-card"
      data-outcome={item.outcome ? (item.outcome.answered ? "answered" : item.outcome.text) : ""}
      role="group"
      aria-label={`Hermes asks: ${item.message}`}
      aria-keyshortcuts={waiting && choices.length ? choices.map((_, i) => String(i + 1)).join(" ") : undefined}
      tabIndex={waiting ? 0 : undefined}
    >
      <div class="permission-head">
        <Icon name={waiting ? "warning" : item.outcome?.answered ? "check" : "x"} />
        <div>
          <div class="permission-kicker">{waiting ? "Hermes asks" : "Question"}</div>
          <div class="permission-title question-text">{item.message}</div>
        </div>
      </div>
      {waiting && choices.length > 0 && (
        <div class="question-choices">
          {choices.map((choice, i) => (
            <button key={choice.value} type="button" class="button secondary question-choice" data-testid="question-choice" aria-keyshortcuts={i < 9 ? String(i + 1) : undefined} onClick={() => answer(choice.value)}>
              {i < 9 && (
                <kbd class="option-key" aria-hidden="true">
                  {i + 1}
                </kbd>
              )}
              <span class="option-label">{choice.title}</span>
              {choice.description && <span class="question-choice-description">{choice.description}</span>}
            </button>
          ))}
        </div>
      )}
      {waiting && choices.length === 0 && <FreeTextAnswer onSend={(text) => answer(text)} />}
      {waiting && (
        <div class="button-row">
          <button type="button" class="link-button" data-testid="question-skip" onClick={() => answer()}>
            Skip — let Hermes decide
          </button>
        </div>
      )}
      {!waiting && item.outcome && (
        <div class="outcome" data-testid="question-outcome">
          {item.outcome.answered
            ? `You answered: ${item.outcome.text}`
            : item.outcome.text === "declined"
              ? "Skipped: Hermes decides"
              : (item.note ?? "Not answered (the turn ended)")}
        </div>
      )}
    </div>
  );
}

function FreeTextAnswer({ onSend }: { onSend: (text: string) => void }) {
  const [text, setText] = useState("");
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => box.current?.focus(), []);
  const send = () => {
    if (text.trim()) onSend(text.trim());
  };
  return (
    <div class="question-answer">
      <textarea
        ref={box}
        data-testid="question-answer"
        rows={2}
        value={text}
        placeholder="Your answer"
        aria-label="Your answer to Hermes's question"
        onInput={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => enterSends(e, send)}
      />
      <div class="button-row">
        <button type="button" class="button small primary" data-testid="question-send" disabled={!text.trim()} onClick={send}>
          Answer
        </button>
      </div>
    </div>
  );
}

