// What only the view owns: the composer draft, what is expanded, where the transcript is
// scrolled, the history search and recently sent prompts. It survives the webview being
// hidden or rebuilt through vscode.setState (saved shortly after each change).
import { createStore, useStore } from "./external-store";
import { loadPersisted, savePersisted } from "./vscode-api";

export interface ViewState {
  draft: string;
  /** Item id (or a panel key such as "plan") → expanded. Absent keys use the item's default. */
  expanded: Record<string, boolean>;
  /** Where the transcript was: `anchorId` is the first item in view, its top `anchorTop` px below the view's top. */
  scroll?: { sessionId: string | null; top: number; atBottom: boolean; anchorId?: string; anchorTop?: number };
  historyQuery: string;
  /** Prompts sent from this panel, newest last: Up in an empty composer recalls them. */
  sent: string[];
}

const MAX_EXPANDED = 500;
const MAX_SENT = 50;

function restore(raw: unknown): ViewState {
  const base: ViewState = { draft: "", expanded: {}, historyQuery: "", sent: [] };
  if (!raw || typeof raw !== "object") return base;
  const saved = raw as Partial<ViewState>;
  return {
    draft: typeof saved.draft === "string" ? saved.draft : "",
    expanded: saved.expanded && typeof saved.expanded === "object" ? saved.expanded : {},
    scroll: saved.scroll && typeof saved.scroll.top === "number" ? saved.scroll : undefined,
    historyQuery: typeof saved.historyQuery === "string" ? saved.historyQuery : "",
    sent: Array.isArray(saved.sent) ? saved.sent.filter((s): s is string => typeof s === "string").slice(-MAX_SENT) : [],
  };
}

export const viewStore = createStore<ViewState>(restore(loadPersisted()));

let saveTimer: ReturnType<typeof setTimeout> | undefined;

export function updateView(change: (view: ViewState) => Partial<ViewState>): void {
  const current = viewStore.get();
  viewStore.set({ ...current, ...change(current) });
  clearTimeout(saveTimer);
  saveTimer = setTimeout(() => savePersisted(viewStore.get()), 200);
}

/** Records the scroll position for the next save without notifying anyone (it changes per frame). */
export function persistScroll(scroll: NonNullable<ViewState["scroll"]>): void {
  const current = viewStore.get();
  current.scroll = scroll; // deliberately in place: nothing renders from it
  clearTimeout(saveTimer);
  saveTimer = setTimeout(() => savePersisted(viewStore.get()), 200);
}

export function setExpanded(key: string, open: boolean): void {
  updateView((view) => {
    const expanded = { ...view.expanded, [key]: open };
    const keys = Object.keys(expanded);
    // Bounded: the oldest keys go first (insertion order).
    for (const old of keys.slice(0, Math.max(0, keys.length - MAX_EXPANDED))) delete expanded[old];
    return { expanded };
  });
}

export function rememberSent(text: string): void {
  updateView((view) => ({ sent: [...view.sent.filter((s) => s !== text), text].slice(-MAX_SENT) }));
}

/** Whether `key` is expanded, falling back to `byDefault`; re-renders only when that answer changes. */
export function useExpanded(key: string, byDefault: boolean): [boolean, (open: boolean) => void] {
  const stored = useStore(viewStore, (view) => view.expanded[key]);
  return [stored ?? byDefault, (open) => setExpanded(key, open)];
}
