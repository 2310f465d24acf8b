// One tool call: kind icon, title and live status; its locations open in the editor; its
// content (text output, terminal, diff) shows below. Quiet kinds (read, search, fetch, think)
// start folded once done, unless they show an image (a screenshot is the result); edits, commands and failures start open. An edit decided hunk by hunk
// carries its permission card inside (one card per edit): the decision while it waits, then
// its outcome above what landed.
import type { ToolCallLocation } from "../../../common/acp-types";
import type { ToolItem } from "../../../common/panel-state/types";
import { visibleControls } from "../../../common/visible-controls";
import { chatStore } from "../../bridge/chat-store";
import { useStore } from "../../bridge/external-store";
import { post } from "../../bridge/vscode-api";
import { useExpanded } from "../../bridge/view-state";
import { shortPath } from "../../lib/short-path";
import { hasShownImage } from "../../lib/tool-image";
import { embeddedDecision } from "../../../common/panel-state/reducer";
import { Icon, Spinner, toolIcon } from "../icons";
import { PermissionCard } from "./PermissionCard";
import { ReviewCard } from "./ReviewCard";
import { ToolContent } from "./ToolContent";

const statusLabel: Record<string, string> = {
  pending: "Pending",
  in_progress: "Running",
  completed: "Done",
  failed: "Failed",
  rejected: "Rejected by you",
  cancelled: "Cancelled",
  deciding: "Waiting for you",
};
const QUIET = new Set(["read", "search", "fetch", "think"]);

export function ToolCard({ item }: { item: ToolItem }) {
  const openByDefault = (item.status === "failed" && !item.rejected && !item.cancelled) || !QUIET.has(item.toolKind) || item.status !== "completed" || hasShownImage(item.content);
  const [open, setOpen] = useExpanded(item.id, openByDefault);
  const bodyId = `tool-${item.id}`;
  const decision = useStore(chatStore, (state) => embeddedDecision(state, item.id));
  // While its edit waits for the user's decision, the card says so rather than "Running".
  const waiting = decision?.kind === "review" ? decision.status === "pending" : decision !== undefined && decision.outcome === undefined;
  const deciding = waiting && item.status !== "failed" && item.status !== "completed";
  // The user said no in the permission card: their decision, not a failure.
  const status = item.rejected && item.status === "failed" ? "rejected" : item.cancelled && item.status === "failed" ? "cancelled" : deciding ? "deciding" : item.status;
  // A rejected edit's result only repeats its decision's "Rejected by you" (and the reason).
  const hasBody = item.content.length > 0 && !(decision && status === "rejected");
  return (
    <div class={`card tool-card status-${status}${item.parentId ? " nested-step" : ""}`} data-testid="tool-card" data-parent={item.parentId} data-status={item.status} data-rejected={item.rejected ? "true" : undefined} data-kind={item.toolKind}>
      <div class="tool-head">
        <span class="tool-icon">
          <Icon name={toolIcon(item.toolKind)} />
        </span>
        {hasBody ? (
          <button type="button" class="tool-title disclosure" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen(!open)}>
            <span class="truncate">{visibleControls(item.title)}</span>
            <Icon name="chevron" class={open ? "rot90" : ""} />
          </button>
        ) : (
          <span class="tool-title truncate">{visibleControls(item.title)}</span>
        )}
        <StatusBadge status={status} />
      </div>
      {item.locations.length > 0 && <Locations locations={item.locations} />}
      {decision?.kind === "permission" && <PermissionCard item={decision} embedded />}
      {decision?.kind === "review" && <ReviewCard item={decision} embedded />}
      {hasBody && open && (
        <div class="tool-body" id={bodyId}>
          {item.content.map((content, i) => (
            <ToolContent key={i} content={content} toolCallId={item.id} index={i} title={item.title} fullOutput={item.fullOutput !== undefined} />
          ))}
        </div>
      )}
    </div>
  );
}

function StatusBadge({ status }: { status: string }) {
  return (
    <span class={`status-badge status-${status}`} title={statusLabel[status] ?? status}>
      {status === "in_progress" ? <Spinner /> : status === "completed" ? <Icon name="check" /> : status === "failed" || status === "rejected" || status === "cancelled" ? <Icon name="x" /> : <Icon name="clock" />}
      <span class="status-text">{statusLabel[status] ?? status}</span>
    </span>
  );
}

function Locations({ locations }: { locations: ToolCallLocation[] }) {
  return (
    <div class="tool-locations">
      {locations.slice(0, 8).map((loc, i) => (
        <button
          key={i}
          type="button"
          class="location"
          title={`Open ${loc.path}${loc.line ? `:${loc.line}` : ""}`}
          onClick={() => post({ type: "openLocation", path: loc.path, line: loc.line ?? undefined })}
        >
          {shortPath(loc.path)}
          {loc.line ? <span class="location-line">:{loc.line}</span> : null}
        </button>
      ))}
      {locations.length > 8 && <span class="muted">+{locations.length - 8} more</span>}
    </div>
  );
}
