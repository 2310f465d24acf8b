// The commands package.json contributes, each a thin call into the chat.
import path from "node:path";
import * as vscode from "vscode";
import type { ChatController } from "./chat-controller";
import type { ChatEditorTabs } from "./chat-view";
import { attachFromEditor } from "./panel-messages";
import { fileAttachment } from "./workspace-actions";
import { newWorktreeChat } from "./worktree-chat";
import { notificationText } from "./notification-text";

/** Shows the sidebar chat (the view's built-in focus command). */
export async function revealChat(): Promise<void> {
  await vscode.commands.executeCommand("hermes.chat.focus");
}

export function registerCommands(chat: ChatController, tabs: ChatEditorTabs): vscode.Disposable[] {
  // Each command gets its own arguments from VS Code (a Uri, a selection, nothing): untyped by nature.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const command = (id: string, run: (...args: any[]) => unknown) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        await run(...args);
      } catch (error) {
        chat.log.error(`${id} failed: ${error instanceof Error ? error.message : String(error)}`);
        void vscode.window.showErrorMessage(`Hermes: ${notificationText(error instanceof Error ? error.message : String(error))}`);
      }
    });

  const askAboutSelection = async (prompt: string) => {
    await revealChat();
    if (!attachFromEditor(chat, "selection")) return;
    await chat.start();
    await chat.session.prompt(prompt);
  };

  return [
    // A new chat opens in a tab of its own (chat-tabs.ts); the others keep running.
    command("hermes.newChat", async () => {
      await revealChat();
      await chat.newChat();
    }),
    command("hermes.newWorktreeChat", async () => {
      await revealChat();
      await newWorktreeChat(chat);
    }),
    // The title-bar button toggles, like the panel's own "Back to the chat".
    command("hermes.showHistory", async () => {
      await revealChat();
      await chat.session.showHistory(!chat.store.state.history.open);
    }),
    // Memory entries and skills with their stats: a screen of the panel, like the history.
    command("hermes.showKnowledge", async () => {
      await revealChat();
      await chat.knowledge.show(!chat.store.state.knowledge?.open);
    }),
    command("hermes.openInEditor", () => tabs.open()),
    command("hermes.cancel", () => chat.session.cancel()),
    command("hermes.addSelection", async () => {
      if (attachFromEditor(chat, "selection")) await revealChat();
    }),
    // From the explorer's context menu the clicked file comes as the argument.
    command("hermes.addFile", async (uri?: vscode.Uri) => {
      const target = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
      if (!target) {
        void vscode.window.showInformationMessage("Open or select a file to add it to the chat.");
        return;
      }
      chat.dispatch({ type: "attachmentAdded", attachment: fileAttachment(target.toString(), path.basename(target.path)) });
      await revealChat();
    }),
    command("hermes.explainSelection", () => askAboutSelection("Explain this code.")),
    command("hermes.fixSelection", () => askAboutSelection("Fix the problems in this code.")),
    command("hermes.restartAgent", () => chat.restartAgent()),
    command("hermes.signIn", async () => {
      await revealChat();
      await chat.signIn();
    }),
    command("hermes.signOut", () => chat.signOut()),
    command("hermes.showLog", () => chat.showLog()),
  ];
}
