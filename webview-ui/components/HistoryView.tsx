// Past sessions of this workspace: searchable by title, open on click, delete after an inline
// confirmation. Replaces the transcript while open.
import { useMemo, useRef, useState } from "preact/hooks";
import type { ChatState, SessionSummary } from "../state/types";
import { useStore } from "../bridge/external-store";
import { updateView, viewStore } from "../bridge/view-state";
import { post } from "../bridge/vscode-api";
import { filterSessions } from "../lib/history-filter";
import { relativeTime } from "../lib/relative-time";
import { Icon, Spinner } from "./icons";
import { InlineConfirm } from "./InlineConfirm";
import { memo } from "./memo";

export const HistoryView = memo(function HistoryView({ history, currentId }: { history: ChatState["history"]; currentId: string | null }) {
  const query = useStore(viewStore, (v) => v.historyQuery);
  const sessions = useMemo(() => filterSessions(history.sessions, query), [history.sessions, query]);
  return (
    <div class="history">
      <div class="history-bar">
        <button type="button" class="icon-button" data-testid="history-back" title="Back to the chat" aria-label="Back to the chat" onClick={() => post({ type: "history", open: false })}>
          <Icon name="chevron" class="rot180" />
        </button>
        <div class="search">
          <Icon name="search" />
          <input
            type="search"
            data-testid="history-search"
            placeholder="Search chats"
            aria-label="Search chats by title"
            value={query}
            autoFocus
            onInput={(e) => updateView(() => ({ historyQuery: e.currentTarget.value }))}
          />
        </div>
        <button type="button" class="button primary small" onClick={() => post({ type: "newChat" })}>
          <Icon name="plus" /> New chat
        </button>
      </div>
      {history.loading && (
        <div class="loading-row muted">
          <Spinner /> Loading chats…
        </div>
      )}
      {history.error && (
        <div class="notice notice-error" role="alert">
          <Icon name="error" /> <span>{history.error}</span>
        </div>
      )}
      {!history.loading && !history.error && sessions.length === 0 && (
        <div class="empty muted">{query ? `No chats match “${query}”.` : "No chats in this workspace yet."}</div>
      )}
      <ul class="history-list" aria-label="Chats">
        {sessions.map((session) => (
          <HistoryRow key={session.sessionId} session={session} current={session.sessionId === currentId} />
        ))}
      </ul>
    </div>
  );
});

function HistoryRow({ session, current }: { session: SessionSummary; current: boolean }) {
  const [confirming, setConfirming] = useState(false);
  const trash = useRef<HTMLButtonElement>(null);
  const title = session.title?.trim() || "Untitled";
  return (
    <li class={`history-item${current ? " current" : ""}${session.title?.trim() ? "" : " untitled"}`} data-testid="history-item" data-session-id={session.sessionId}>
      <div class="history-row">
        <button type="button" class="history-open" onClick={() => post({ type: "openSession", sessionId: session.sessionId })} aria-current={current ? "true" : undefined}>
          <span class="history-title truncate">{title}</span>
          <span class="history-time muted">{relativeTime(session.updatedAt)}</span>
        </button>
        <button
          ref={trash}
          type="button"
          class="icon-button subtle"
          data-testid="history-delete"
          aria-label={`Delete “${title}”`}
          aria-expanded={confirming}
          title="Delete"
          onClick={() => setConfirming(true)}
        >
          <Icon name="trash" />
        </button>
      </div>
      {confirming && (
        <InlineConfirm
          testId="delete-confirm"
          question={`Delete “${title}”? This cannot be undone.`}
          confirmLabel="Delete"
          danger
          onConfirm={() => {
            setConfirming(false);
            post({ type: "deleteSession", sessionId: session.sessionId });
          }}
          onCancel={() => {
            setConfirming(false);
            trash.current?.focus();
          }}
        />
      )}
    </li>
  );
}
