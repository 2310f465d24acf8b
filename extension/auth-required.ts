// ACP's auth-required error (-32000): Hermes has no usable model yet. The panel then says why and
// offers "Sign in…" (sign-in.ts). No vscode import.
import type { ChatAction } from "../common/panel-state/actions";
import type { ChatState } from "../common/panel-state/types";
import { userMessage } from "./log";

export const AUTH_REQUIRED_CODE = -32000;

export function isAuthRequired(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === AUTH_REQUIRED_CODE;
}

/** The notice for an auth-required answer: the agent's own reason (what is missing, where), and the button. */
export function signInNotice(error: unknown): ChatAction {
  const data = (error as { data?: { reason?: unknown } }).data;
  const reason = typeof data?.reason === "string" && data.reason.trim() ? data.reason.trim() : userMessage(error);
  return { type: "notice", severity: "warning", text: `Hermes needs a model before it can chat. ${reason}`, action: "signIn" };
}

/** Whether the transcript already ends with the sign-in notice. */
export function signInOffered(state: ChatState): boolean {
  const last = state.items.at(-1);
  return last?.kind === "notice" && last.action === "signIn";
}
