// Signing Hermes in from VS Code. The choices are the agent's own sign-in methods from its
// `initialize` answer: an API key for a provider (typed in a password box and sent with ACP
// `authenticate`; the agent checks it with one free request and stores it in $HERMES_HOME/.env,
// mode 600), or `hermes setup` in a terminal (ACP's terminal method: the agent command with
// --setup) for a local Ollama / LM Studio or a model list to pick from. Sign-out is ACP `logout`.
import * as acp from "@agentclientprotocol/sdk/unstable";
import * as vscode from "vscode";
import type { Connected } from "./agent-host";
import type { AgentCommand } from "./agent-process";
import { userMessage } from "./log";
import { notificationText } from "./notification-text";

interface MethodPick extends vscode.QuickPickItem {
  methodId?: string;
}

/** Asks how to sign in and does it; true once the agent has a key or the setup terminal closed. */
export async function signIn(connected: () => Promise<Connected>, agentCommand: () => AgentCommand): Promise<boolean> {
  const { agent, init } = await connected();
  // Agent methods (no type, or "agent") are the ones `authenticate` takes; the terminal one is run below.
  const keyMethods = (init.authMethods ?? []).filter((method) => [undefined, "agent"].includes((method as { type?: string }).type));
  const picks: MethodPick[] = [
    ...keyMethods.map((method) => ({ label: method.name, detail: "Paste a key; Hermes checks it and stores it in $HERMES_HOME/.env (mode 600)", methodId: method.id })),
    { label: "Set up in a terminal", detail: "hermes setup: a local Ollama or LM Studio, or a provider, key and model from its list" },
  ];
  const pick = await vscode.window.showQuickPick(picks, { title: "Sign in to Hermes", placeHolder: "How should Hermes reach a model?", ignoreFocusOut: true });
  if (!pick) return false;
  if (!pick.methodId) return runSetupInTerminal(agentCommand());

  for (;;) {
    const key = await vscode.window.showInputBox({
      title: pick.label,
      prompt: "Paste the API key. Hermes checks it with one free request before it stores it.",
      password: true,
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() ? undefined : "The key is empty"),
    });
    if (key === undefined) return false;
    try {
      await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: "Hermes: checking the key…" }, () =>
        agent.request(acp.methods.agent.authenticate, { methodId: pick.methodId!, _meta: { "hermes/apiKey": key.trim() } }),
      );
      void vscode.window.showInformationMessage(`Hermes: signed in (${pick.label}).`);
      return true;
    } catch (error) {
      // The provider's words: never a link (notification-text.ts).
      const again = await vscode.window.showErrorMessage(`Hermes: ${notificationText(userMessage(error))}`, "Try Again");
      if (again !== "Try Again") return false;
    }
  }
}

/** `hermes setup` (the agent command with --setup) in a terminal; resolves when that terminal closes. */
function runSetupInTerminal(command: AgentCommand): Promise<boolean> {
  const terminal = vscode.window.createTerminal({
    name: "Hermes setup",
    shellPath: command.command,
    shellArgs: [...command.args, "--setup"],
    env: Object.fromEntries(Object.entries(command.env).filter((entry): entry is [string, string] => entry[1] !== undefined)),
  });
  terminal.show();
  return new Promise((resolve) => {
    const watch = vscode.window.onDidCloseTerminal((closed) => {
      if (closed !== terminal) return;
      watch.dispose();
      resolve(closed.exitStatus?.code === 0);
    });
  });
}

/** ACP `logout` when the agent offers it: the stored keys go, new chats need a sign-in. */
export async function signOut(connected: () => Promise<Connected>): Promise<void> {
  const { agent, init } = await connected();
  if (!init.agentCapabilities?.auth?.logout) {
    void vscode.window.showInformationMessage("Hermes: this agent cannot sign out from the editor.");
    return;
  }
  await agent.request(acp.methods.agent.logout, {});
  void vscode.window.showInformationMessage("Hermes: signed out. The stored API keys were removed; new chats ask you to sign in.");
}
