// The agent asks before acting: one button per option the agent offered, in its order and with
// its own names (two options can share a kind, e.g. "for this session" and "saved to config",
// so a label by kind alone could not tell them apart). Once answered (or cancelled with the
// turn) the card shows the outcome instead.
import type { PermissionOption } from "@agentclientprotocol/sdk";
import type { PermissionItem } from "../../state/types";
import { post } from "../../bridge/vscode-api";
import { Icon } from "../icons";
import { ToolContent } from "./ToolContent";

const kindLabel: Record<string, string> = {
  allow_once: "Allow once",
  allow_session: "Allow this session",
  allow_always: "Always allow",
  reject_once: "Deny",
  reject_always: "Always deny",
};
export function optionLabel(option: PermissionOption): string {
  return option.name.trim() || kindLabel[option.kind] || option.optionId;
}

export function PermissionCard({ item }: { item: PermissionItem }) {
  const options = item.options;
  const chosen = item.options.find((o) => o.optionId === item.outcome);
  const waiting = item.outcome === undefined;
  return (
    <div
      class={`card permission-card${waiting ? " waiting" : ""}`}
      data-testid="permission-card"
      data-outcome={item.outcome ?? ""}
      role="group"
      aria-label={`Permission: ${item.title}`}
    >
      <div class="permission-head">
        <Icon name={waiting ? "warning" : chosen?.kind.startsWith("allow") ? "check" : "x"} />
        <div>
          <div class="permission-kicker">{waiting ? "Permission needed" : "Permission"}</div>
          <div class="permission-title">{item.title}</div>
        </div>
      </div>
      {waiting && item.content?.length ? (
        <div class="permission-content">
          {item.content.map((content, i) => (
            <ToolContent key={i} content={content} toolCallId={item.toolCallId} index={1000 + i} />
          ))}
        </div>
      ) : null}
      {waiting ? (
        <div class="button-row">
          {options.map((option, i) => (
            <button
              key={option.optionId}
              type="button"
              class={`button ${option.kind.startsWith("allow") ? (i === 0 ? "primary" : "secondary") : "secondary danger"}`}
              data-option-kind={option.kind}
              onClick={() => post({ type: "permission", id: item.id, optionId: option.optionId })}
            >
              {optionLabel(option)}
            </button>
          ))}
        </div>
      ) : (
        <div class="outcome">{item.outcome === "cancelled" ? "Cancelled" : chosen ? outcomeText(chosen) : item.outcome}</div>
      )}
    </div>
  );
}

function outcomeText(option: PermissionOption): string {
  switch (option.kind as string) {
    case "allow_once":
      return "Allowed once";
    case "allow_session":
      return "Allowed for this session";
    case "allow_always":
      return option.name.toLowerCase().includes("session") ? "Allowed for this session" : "Always allowed";
    case "reject_once":
      return "Denied";
    case "reject_always":
      return "Always denied";
    default:
      return option.name;
  }
}
