// Info, warnings and errors from the host or the agent, inline in the transcript; and the
// "Stopped" rule a turn the user stopped ends with, and the "Interrupted" one of a turn the
// agent's process died in (both also replayed from the journal by session/load). A notice that
// the agent has no usable model offers "Sign in…".
import { post } from "../../bridge/vscode-api";
import type { NoticeItem } from "../../../common/panel-state/types";
import { Icon } from "../icons";

export function Notice({ item }: { item: NoticeItem }) {
  if (item.marker === "stopped") {
    return (
      <div class="stopped-rule" data-testid="stopped-marker" role="note">
        <Icon name="stop" /> Stopped
      </div>
    );
  }
  if (item.marker === "interrupted") {
    return (
      <div class="stopped-rule interrupted-rule" data-testid="interrupted-marker" role="note">
        <Icon name="warning" /> {item.text}
      </div>
    );
  }
  return (
    <div class={`notice notice-${item.severity}`} role={item.severity === "error" ? "alert" : undefined}>
      <Icon name={item.severity === "error" ? "error" : item.severity === "warning" ? "warning" : "info"} />
      <span>{item.text}</span>
      {item.action === "signIn" && (
        <button type="button" class="button small primary notice-action" data-testid="notice-sign-in" onClick={() => post({ type: "signIn" })}>
          Sign in…
        </button>
      )}
    </div>
  );
}
