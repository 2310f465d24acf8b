// A held edit, reviewed per hunk: each hunk can be accepted or rejected, or the whole file at
// once; only accepted hunks are written. "Open diff" shows it in VS Code's diff editor.
import type { ReviewHunk, ReviewItem } from "../../../common/panel-state/types";
import { post } from "../../bridge/vscode-api";
import { hunkHeader } from "../../../common/line-diff";
import { DiffView } from "../DiffView";
import { Icon } from "../icons";

const statusText: Record<ReviewItem["status"], string> = { pending: "Review", applied: "Applied", rejected: "Rejected", cancelled: "Cancelled" };

/** `embedded`: inside the edit's tool card (one card per edit), which already names the file. */
export function ReviewCard({ item, embedded = false }: { item: ReviewItem; embedded?: boolean }) {
  const pending = item.status === "pending";
  const accepted = item.hunks.filter((h) => h.decision === "accepted").length;
  const rejected = item.hunks.filter((h) => h.decision === "rejected").length;
  return (
    <div
      class={`${embedded ? "edit-decision" : "card"} review-card review-${item.status}`}
      data-testid="review-card"
      data-embedded={embedded ? "true" : undefined}
      data-status={item.status}
      role="group"
      aria-label={`Review edit to ${item.displayPath}`}
    >
      <div class="review-head">
        <Icon name="pencil" />
        <span class="review-path truncate" title={item.path}>
          {embedded ? "Review this edit" : item.displayPath}
        </span>
        {item.isNewFile && <span class="tag">new file</span>}
        <span class={`tag status-tag status-${item.status}`}>{statusText[item.status]}</span>
      </div>
      <div class="review-summary muted">
        {item.hunks.length} {item.hunks.length === 1 ? "change" : "changes"}
        {accepted + rejected > 0 && ` · ${accepted} accepted · ${rejected} rejected`}
      </div>
      {/* Inside its tool card, a decided review gives way to what landed (the tool card's diff). */}
      {(pending || !embedded) &&
        item.hunks.map((hunk, i) => (
          <Hunk key={i} expandKey={`${item.id}#${i}`} index={i} hunk={hunk} pending={pending} decide={(decision) => post({ type: "reviewHunk", id: item.id, hunk: i, decision })} />
        ))}
      {(pending || !embedded) && (
        <div class="button-row">
          <button type="button" class="button primary" data-testid="review-accept-all" disabled={!pending} onClick={() => post({ type: "reviewAll", id: item.id, decision: "accepted" })}>
            Accept all
          </button>
          <button type="button" class="button secondary" data-testid="review-reject-all" disabled={!pending} onClick={() => post({ type: "reviewAll", id: item.id, decision: "rejected" })}>
            Reject all
          </button>
          <span class="spacer" />
          <button type="button" class="button secondary" onClick={() => post({ type: "openDiff", id: item.id })}>
            <Icon name="diff" /> Open diff
          </button>
        </div>
      )}
    </div>
  );
}

/** One hunk with its Accept / Reject toggles (also the hunks of an edit's permission card). */
export function Hunk({
  expandKey,
  index,
  hunk,
  pending,
  decide,
}: {
  expandKey: string;
  index: number;
  hunk: ReviewHunk;
  pending: boolean;
  decide: (decision: "accepted" | "rejected") => void;
}) {
  return (
    <div class={`hunk review-hunk decision-${hunk.decision}`} data-testid="review-hunk" data-decision={hunk.decision}>
      <div class="hunk-bar">
        <span class="hunk-header">{hunkHeader(hunk)}</span>
        <span class="spacer" />
        <button
          type="button"
          class={`chip-button accept${hunk.decision === "accepted" ? " on" : ""}`}
          data-testid="hunk-accept"
          data-decision={hunk.decision}
          aria-pressed={hunk.decision === "accepted"}
          aria-label={`Accept change ${index + 1}`}
          disabled={!pending}
          onClick={() => decide("accepted")}
        >
          <Icon name="check" /> Accept
        </button>
        <button
          type="button"
          class={`chip-button reject${hunk.decision === "rejected" ? " on" : ""}`}
          data-testid="hunk-reject"
          data-decision={hunk.decision}
          aria-pressed={hunk.decision === "rejected"}
          aria-label={`Reject change ${index + 1}`}
          disabled={!pending}
          onClick={() => decide("rejected")}
        >
          <Icon name="x" /> Reject
        </button>
      </div>
      <DiffView lines={hunk.lines} oldStart={hunk.oldStart} newStart={hunk.newStart} expandKey={expandKey} limit={60} />
    </div>
  );
}
