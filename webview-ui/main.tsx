// Chat panel entry: the browser bundle dist/webview.js (+ dist/webview.css) loaded by the
// extension's webview. Mounts the app, then connects to the host, which answers `ready`
// with a snapshot of the chat state.
import "./zod-setup";
import { render } from "preact";
import { installFocusHandling } from "./bridge/focus";
import { connectToHost } from "./bridge/host-messages";
import { App } from "./components/App";
import "./styles/index.css";

function start(): void {
  const root = document.getElementById("root") ?? document.body.appendChild(document.createElement("div"));
  root.id = "root";
  render(<App />, root);
  installFocusHandling();
  connectToHost();
}

// The host page may load the script in <head>; wait for <body> then.
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start, { once: true });
else start();
