// The panel: header, then the transcript (or history), then the dock with plan, queue,
// composer and usage. Reads the chat mirror; every change the user makes goes to the host.
// App re-renders on every applied batch; its children are memoised on state slices the
// reducer leaves untouched, so a streamed chunk re-renders only the transcript.
import { useEffect } from "preact/hooks";
import { chatStore } from "../bridge/chat-store";
import { activeChat, chatsStore } from "../bridge/chats-store";
import { useStore } from "../bridge/external-store";
import { post } from "../bridge/vscode-api";
import type { ChatState } from "../../common/panel-state/types";
import { ChatTabs } from "./ChatTabs";
import { Composer } from "./composer/Composer";
import { QueueList } from "./composer/QueueList";
import { Header } from "./Header";
import { HistoryView } from "./HistoryView";
import { KnowledgeView } from "./KnowledgeView";
import { LiveRegion } from "./LiveRegion";
import { PlanView } from "./PlanView";
import { Transcript } from "./Transcript";
import { UsageMeter } from "./UsageMeter";
import { WorktreeBar } from "./WorktreeBar";

export function App() {
  const state = useStore(chatStore, (s) => s);
  useEscapeCancels(state.turn.running);
  const lastPrompt = lastUserText(state);
  const knowledgeOpen = state.knowledge?.open === true;
  const worktree = useStore(chatsStore, (s) => activeChat(s)?.worktree);
  return (
    <div class="app">
      <ChatTabs />
      <Header title={state.title} connection={state.connection} historyOpen={state.history.open} knowledgeOpen={knowledgeOpen} />
      {worktree && !state.history.open && !knowledgeOpen && <WorktreeBar worktree={worktree} running={state.turn.running} />}
      {state.history.open ? (
        <HistoryView history={state.history} currentId={state.sessionId} />
      ) : knowledgeOpen && state.knowledge ? (
        <KnowledgeView knowledge={state.knowledge} />
      ) : (
        <Transcript items={state.items} sessionId={state.sessionId} running={state.turn.running} loading={state.loading} />
      )}
      <LiveRegion items={state.items} running={state.turn.running} />
      {/* History is a separate screen: the composer and plan belong to the open chat. */}
      <div class="dock" hidden={state.history.open || knowledgeOpen}>
        <PlanView plan={state.plan} running={state.turn.running} />
        <QueueList queue={state.queue} />
        <Composer
          running={state.turn.running}
          commands={state.commands}
          attachments={state.attachments}
          lastPrompt={lastPrompt}
          disabled={state.connection.status !== "ready"}
          modes={state.modes}
          configOptions={state.configOptions}
        />
        <div class="footer">
          <UsageMeter usage={state.usage} />
        </div>
      </div>
    </div>
  );
}

/** Esc anywhere in the panel stops a running turn (the composer handles its own Esc first). */
function useEscapeCancels(running: boolean): void {
  useEffect(() => {
    if (!running) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !e.defaultPrevented) post({ type: "cancel" });
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [running]);
}

function lastUserText(state: ChatState): string | undefined {
  for (let i = state.items.length - 1; i >= 0; i--) {
    const item = state.items[i];
    if (item.kind === "user") return item.text;
  }
  return undefined;
}
