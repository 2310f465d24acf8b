// A chat in the background finished its turn or needs an answer: a VS Code notification (seen
// wherever the user is, the panel may be hidden or show another chat) whose "Show" brings the
// chat up; its tab in the panel stays marked until it is shown. A notification rather than only
// the panel's mark because the user is usually in an editor while a long task runs.
import * as vscode from "vscode";
import type { BackgroundEvent } from "./chat-status";
import { backgroundMessage, tabTitle } from "./chat-status";
import type { ChatTab } from "./chat-tab";
import { notificationText } from "./notification-text";

export function notifyBackground(tab: ChatTab, event: BackgroundEvent, panelVisible: boolean, show: (id: string) => void): void {
  // With no panel in sight the permission broker already asks in a notification of its own (with the options).
  if (event.kind === "permission" && !panelVisible) return;
  // The chat's title is the model's words: never a link (notification-text.ts).
  const message = notificationText(backgroundMessage(tabTitle(tab.store.state).title, event));
  const notify = event.kind === "finished" && !event.failed ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
  void notify(message, "Show").then((choice) => {
    if (choice !== "Show") return;
    show(tab.id);
    void vscode.commands.executeCommand("hermes.chat.focus");
  });
}
