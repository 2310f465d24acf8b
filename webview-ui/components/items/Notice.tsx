// Info, warnings and errors from the host or the agent, inline in the transcript.
import type { NoticeItem } from "../../state/types";
import { Icon } from "../icons";

export function Notice({ item }: { item: NoticeItem }) {
  return (
    <div class={`notice notice-${item.severity}`} role={item.severity === "error" ? "alert" : undefined}>
      <Icon name={item.severity === "error" ? "error" : item.severity === "warning" ? "warning" : "info"} />
      <span>{item.text}</span>
    </div>
  );
}
