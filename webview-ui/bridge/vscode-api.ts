// The one handle on VS Code's webview API. acquireVsCodeApi may be called only once per page,
// so every module posts and persists through here. Outside VS Code (a plain browser page) a
// stand-in logs what would have been sent, which keeps the panel debuggable on its own.
import type { PanelToHost } from "../../common/panel-protocol";

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

function acquire(): VsCodeApi {
  if (typeof acquireVsCodeApi === "function") return acquireVsCodeApi();
  let saved: unknown;
  return {
    postMessage: (message) => console.info("[hermes panel → host]", message),
    getState: () => saved,
    setState: (state) => {
      saved = state;
    },
  };
}

const api = acquire();

/** Sends one typed message to the extension host. */
export function post(message: PanelToHost): void {
  api.postMessage(message);
}

export function loadPersisted(): unknown {
  return api.getState();
}

export function savePersisted(state: unknown): void {
  api.setState(state);
}
