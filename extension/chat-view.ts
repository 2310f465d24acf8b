// The two places the chat shows: the sidebar view `hermes.chat` and an editor tab
// (`hermes.chatEditor`). Both are views of the same controller; a webview that is rebuilt asks
// for a snapshot with `ready`, and `retainContextWhenHidden` keeps it alive while hidden.
import * as vscode from "vscode";
import type { AttachedPanel, ChatController } from "./chat-controller";
import { errorMessage } from "./log";
import { receivePanelMessage } from "./panel-messages";
import { webviewHtml, webviewOptions } from "./webview-html";

export const VIEW_ID = "hermes.chat";
export const EDITOR_VIEW_TYPE = "hermes.chatEditor";

export class ChatViewProvider implements vscode.WebviewViewProvider {
  constructor(private readonly chat: ChatController) {}

  register(): vscode.Disposable {
    return vscode.window.registerWebviewViewProvider(VIEW_ID, this, { webviewOptions: { retainContextWhenHidden: true } });
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    connect(this.chat, view.webview, () => view.visible, view.onDidDispose);
    void this.chat.start();
  }
}

/** Opens the chat in an editor tab, or reveals the one already open. */
export class ChatEditorTabs {
  private current: vscode.WebviewPanel | undefined;

  constructor(private readonly chat: ChatController) {}

  register(): vscode.Disposable {
    // A tab left open when the window reloaded comes back attached to the same chat.
    return vscode.window.registerWebviewPanelSerializer(EDITOR_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel) => this.adopt(panel),
    });
  }

  open(): void {
    if (this.current) {
      this.current.reveal();
      return;
    }
    const panel = vscode.window.createWebviewPanel(EDITOR_VIEW_TYPE, "Hermes", vscode.ViewColumn.Beside, {
      ...webviewOptions(this.chat.extensionUri),
      retainContextWhenHidden: true,
    });
    this.adopt(panel);
  }

  private adopt(panel: vscode.WebviewPanel): void {
    this.current = panel;
    panel.iconPath = vscode.Uri.joinPath(this.chat.extensionUri, "media", "hermes.svg");
    panel.onDidDispose(() => {
      if (this.current === panel) this.current = undefined;
    });
    connect(this.chat, panel.webview, () => panel.visible, panel.onDidDispose);
    void this.chat.start();
  }
}

function connect(chat: ChatController, webview: vscode.Webview, visible: () => boolean, onDidDispose: vscode.Event<void>): void {
  webview.options = webviewOptions(chat.extensionUri);
  const panel: AttachedPanel = {
    get visible() {
      return visible();
    },
    post: (message) => {
      webview.postMessage(message).then(undefined, (error: unknown) => chat.log.warn(`posting to the panel failed: ${errorMessage(error)}`));
    },
  };
  const detach = chat.attach(panel);
  const listener = webview.onDidReceiveMessage((raw: unknown) => receivePanelMessage(chat, panel, raw));
  // Set last: the page may say `ready` as soon as it loads.
  webview.html = webviewHtml(webview, chat.extensionUri);
  onDidDispose(() => {
    listener.dispose();
    detach();
  });
}
