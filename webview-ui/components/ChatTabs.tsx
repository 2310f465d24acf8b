// The open chats as a strip of tabs above the header: each with its status (a spinner while it
// runs, a mark while it waits for the user, an error mark when its turn failed, a dot when
// something happened there unseen) and its branch when it works in a worktree. Clicking one shows
// it (the others keep running); "×" closes it; "+" opens a new chat, the branch button one in a
// worktree. Shown only once there is more than one chat, so a single chat looks as before.
import type { ChatTabInfo } from "../../common/panel-protocol";
import { chatsStore } from "../bridge/chats-store";
import { useStore } from "../bridge/external-store";
import { post } from "../bridge/vscode-api";
import { Icon, Spinner } from "./icons";

const statusText: Record<ChatTabInfo["status"], string> = {
  running: "running",
  waiting: "waiting for your answer",
  idle: "idle",
  failed: "failed",
};

export function ChatTabs() {
  const { chats, active } = useStore(chatsStore, (s) => s);
  if (chats.length < 2) return null;
  return (
    <div class="chat-tabs" role="tablist" aria-label="Open chats" data-testid="chat-tabs">
      {chats.map((chat) => (
        <ChatTab key={chat.id} chat={chat} selected={chat.id === active} />
      ))}
      <button type="button" class="icon-button chat-tabs-new" title="New chat" aria-label="New chat" onClick={() => post({ type: "newChat" })}>
        <Icon name="plus" />
      </button>
      <button type="button" class="icon-button chat-tabs-new" title="New chat in a worktree" aria-label="New chat in a worktree" data-testid="new-worktree-chat" onClick={() => post({ type: "newChat", worktree: true })}>
        <Icon name="fork" />
      </button>
    </div>
  );
}

function ChatTab({ chat, selected }: { chat: ChatTabInfo; selected: boolean }) {
  const name = chat.title?.trim() || "New chat";
  const label = `${name}: ${statusText[chat.status]}${chat.unseen ? ", new activity" : ""}${chat.worktree ? `, worktree ${chat.worktree.branch}` : ""}`;
  return (
    <div class={`chat-tab chat-tab-${chat.status}${selected ? " selected" : ""}${chat.unseen ? " unseen" : ""}`} data-testid="chat-tab" data-chat-id={chat.id} data-status={chat.status}>
      <button type="button" role="tab" aria-selected={selected} class="chat-tab-open" title={label} aria-label={label} onClick={() => post({ type: "switchChat", id: chat.id })}>
        <StatusMark status={chat.status} unseen={chat.unseen} />
        {chat.worktree && <Icon name="fork" class="chat-tab-branch" />}
        <span class="chat-tab-title truncate">{name}</span>
      </button>
      <button type="button" class="icon-button chat-tab-close" title={`Close ${name}`} aria-label={`Close ${name}`} onClick={() => post({ type: "closeChat", id: chat.id })}>
        <Icon name="x" />
      </button>
    </div>
  );
}

function StatusMark({ status, unseen }: { status: ChatTabInfo["status"]; unseen: boolean }) {
  if (status === "running") return <Spinner />;
  if (status === "waiting") return <Icon name="warning" class="chat-tab-waiting" />;
  if (status === "failed") return <Icon name="error" class="chat-tab-failed" />;
  return unseen ? <Icon name="dot" class="chat-tab-unseen" /> : null;
}
