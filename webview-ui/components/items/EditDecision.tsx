// The edit part of a permission card that decides an edit hunk by hunk (one decision per edit):
// the hunks with their Accept / Reject toggles, the wording of the card's options for an edit
// ("Accept all", "Accept 1 of 2", "Reject all") and what the card says once decided.
import type { PermissionOption } from "../../../common/acp-types";
import type { PermissionItem, ReviewHunk } from "../../../common/panel-state/types";
import { post } from "../../bridge/vscode-api";
import { Icon } from "../icons";
import { Hunk } from "./ReviewCard";

export function EditHunks({ item, waiting }: { item: PermissionItem & { hunks: ReviewHunk[] }; waiting: boolean }) {
  const { accepted, rejected } = counts(item.hunks);
  const total = item.hunks.length;
  return (
    <div class="edit-hunks" data-testid="edit-hunks">
      <div class="review-summary muted">
        {total} {total === 1 ? "change" : "changes"}
        {accepted + rejected > 0 && ` · ${accepted} accepted · ${rejected} rejected`}
        {waiting && total > 1 && " · decide each change, or all at once below"}
      </div>
      {item.hunks.map((hunk, i) => (
        <Hunk
          key={i}
          expandKey={`${item.id}#${i}`}
          index={i}
          hunk={hunk}
          pending={waiting}
          decide={(decision) => post({ type: "permissionHunk", id: item.id, hunk: i, decision })}
        />
      ))}
    </div>
  );
}

/** "Open diff" of the proposal (while waiting; VS Code's diff editor with accept / reject in its title bar). */
export function OpenEditDiff({ id }: { id: string }) {
  return (
    <button type="button" class="button secondary small" data-testid="edit-open-diff" onClick={() => post({ type: "openDiff", id })}>
      <Icon name="diff" /> Open diff
    </button>
  );
}

/**
 * An option's label on an edit's card. Allowing accepts the hunks still undecided (a rejected one
 * stays rejected), so "Allow once" reads "Accept all", or "Accept 1 of 2" once some are rejected.
 */
export function editOptionLabel(option: PermissionOption, hunks: ReviewHunk[], fallback: string): string {
  const { rejected } = counts(hunks);
  if (option.kind === "allow_once") return rejected === 0 ? (hunks.length === 1 ? "Accept" : "Accept all") : `Accept ${hunks.length - rejected} of ${hunks.length}`;
  if (option.kind === "reject_once") return hunks.length === 1 ? "Reject" : "Reject all";
  return fallback;
}

/**
 * What a decided edit card says: how much of the edit was accepted, and a grant that reaches past
 * this edit ("Rejected by you" stays the rejection's words). `allowedText` names the option chosen.
 */
export function editOutcomeText(hunks: ReviewHunk[], option: PermissionOption, allowedText: string): string {
  const { accepted } = counts(hunks);
  const total = hunks.length;
  const rest = total - accepted;
  const split =
    accepted === total
      ? total === 1
        ? "Accepted"
        : `Accepted all ${total} changes`
      : `Accepted ${accepted} of ${total} changes; ${rest === 1 ? "the other was" : "the others were"} not written`;
  return option.kind === "allow_once" ? split : `${split} · ${allowedText}`;
}

function counts(hunks: ReviewHunk[]): { accepted: number; rejected: number } {
  return { accepted: hunks.filter((h) => h.decision === "accepted").length, rejected: hunks.filter((h) => h.decision === "rejected").length };
}
