// Past sessions of this workspace: searchable by title and, through the agent's index, by what
// was said in them; each row shows the title, the first prompt and the workspace. Open on click,
// delete after an inline confirmation. Replaces the transcript while open.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { onHostEvent } from "../bridge/host-events";
import type { ChatState, SessionSummary } from "../../common/panel-state/types";
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
  const found = useContentSearch(query);
  const sessions = useMemo(() => {
    const byTitle = filterSessions(history.sessions, query);
    if (!found) return byTitle;
    // Content hits first (best match first), then title matches the content search did not find.
    const hits = new Set(found.map((s) => s.sessionId));
    return [...found, ...byTitle.filter((s) => !hits.has(s.sessionId))];
  }, [history.sessions, query, found]);
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
            aria-label="Search chats by title and content"
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
          <span class="history-detail muted truncate" data-testid="history-detail">
            {session.firstPrompt && session.firstPrompt !== title ? <span class="history-first-prompt">{session.firstPrompt}</span> : null}
            <span class="history-workspace" title={session.cwd}>
              {workspaceName(session.cwd)}
            </span>
          </span>
          {session.snippet && (
            <span class="history-snippet muted" data-testid="history-snippet">
              <Snippet text={session.snippet} />
            </span>
          )}
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

const SEARCH_DEBOUNCE_MS = 200;

/** The agent's content search for `query` (debounced), or undefined: no query, not answered yet, or not supported. */
function useContentSearch(query: string): SessionSummary[] | undefined {
  const [results, setResults] = useState<{ query: string; sessions: SessionSummary[] } | undefined>(undefined);
  const current = useRef(query);
  current.current = query;
  useEffect(
    () =>
      onHostEvent((event) => {
        if (event.type === "historyResults" && event.query === current.current) setResults(event.ok ? { query: event.query, sessions: event.sessions } : undefined);
      }),
    [],
  );
  useEffect(() => {
    if (!query.trim()) return;
    const timer = setTimeout(() => post({ type: "historySearch", query }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query]);
  return query.trim() && results?.query === query ? results.sessions : undefined;
}

/** The folder a session ran in, by its last path segment. */
function workspaceName(cwd: string): string {
  return cwd.split(/[\\/]/).filter(Boolean).pop() ?? cwd;
}

/** A snippet with its matched words (the index marks them [like this]) highlighted. */
function Snippet({ text }: { text: string }) {
  const parts = text.split(/(\[[^\]]*\])/);
  return <>{parts.map((part, i) => (part.startsWith("[") && part.endsWith("]") ? <mark key={i}>{part.slice(1, -1)}</mark> : part))}</>;
}
