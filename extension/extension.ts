// VS Code entry point. Activation is lazy (VS Code infers it from the contributed view and
// commands); nothing starts until the chat is shown or a command runs. Deactivation stops the
// agent's process group and every terminal command, so nothing outlives the window.
import * as vscode from "vscode";
import { ChatController } from "./chat-controller";
import { ChatEditorTabs, ChatViewProvider } from "./chat-view";
import { registerCommands } from "./commands";

let controller: ChatController | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel("Hermes", { log: true });
  const chat = new ChatController(context.extensionUri, log, context.workspaceState);
  controller = chat;
  const tabs = new ChatEditorTabs(chat);
  context.subscriptions.push(
    log,
    chat,
    new ChatViewProvider(chat).register(),
    tabs.register(),
    ...registerCommands(chat, tabs),
    vscode.workspace.onDidGrantWorkspaceTrust(() => log.info("workspace trusted: new chats use hermes.defaultMode")),
  );
  log.info(`Hermes ${(context.extension.packageJSON as { version?: string }).version ?? ""} activated`);
}

export async function deactivate(): Promise<void> {
  const chat = controller;
  controller = undefined;
  await chat?.shutdown();
}
