// Delegated clicks inside rendered markdown: links open through VS Code (a webview cannot and
// must not navigate), code blocks copy or insert their text. One listener for the whole transcript.
import { post } from "../bridge/vscode-api";

export function handleMarkdownClick(event: MouseEvent): void {
  const target = event.target as Element | null;
  if (!target?.closest) return;
  const button = target.closest<HTMLElement>("[data-code-action]");
  if (button?.closest(".md")) {
    event.preventDefault();
    const code = button.closest(".code-block")?.querySelector("code")?.textContent ?? "";
    const action = button.dataset.codeAction;
    if (action === "copy") {
      post({ type: "copy", text: code });
      flashLabel(button, "Copied");
    } else if (action === "insert") {
      post({ type: "insert", text: code });
      flashLabel(button, "Inserted");
    }
    return;
  }
  const link = target.closest<HTMLAnchorElement>("a[href]");
  if (link) {
    event.preventDefault();
    const href = link.getAttribute("href") ?? "";
    if (href && !href.startsWith("#")) post({ type: "openLink", href });
  }
}

/** Briefly confirms the action on the button itself (and to screen readers via its label). */
function flashLabel(button: HTMLElement, label: string): void {
  const original = button.dataset.label ?? button.textContent ?? "";
  button.dataset.label = original;
  button.textContent = label;
  setTimeout(() => {
    button.textContent = original;
  }, 1200);
}
