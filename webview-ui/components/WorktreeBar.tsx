// Under the header of a chat that works in its own git worktree: its branch, and the buttons
// that bring its work back ("Review & apply": hunk by hunk, then into your checkout) or throw it
// away ("Discard": Hermes asks first). Both wait while a turn runs (the worktree still moves).
import { post } from "../bridge/vscode-api";
import { Icon } from "./icons";
import { memo } from "./memo";

interface Props {
  worktree: { branch: string; path: string };
  running: boolean;
}

export const WorktreeBar = memo(function WorktreeBar({ worktree, running }: Props) {
  return (
    <div class="worktree-bar" data-testid="worktree-bar">
      <span class="worktree-badge" data-testid="worktree-badge" title={`This chat works in its own git worktree, on branch ${worktree.branch}, in ${worktree.path}. Your checkout is untouched until you apply.`}>
        <Icon name="fork" />
        <span class="truncate">{worktree.branch}</span>
      </span>
      <span class="worktree-note muted truncate">worktree</span>
      <button type="button" class="button small primary" data-testid="worktree-apply" disabled={running} title="Review this chat's changes hunk by hunk and apply what you accept to your checkout" onClick={() => post({ type: "worktreeApply" })}>
        Review &amp; apply
      </button>
      <button type="button" class="button small secondary" data-testid="worktree-discard" disabled={running} title="Remove this chat's worktree and branch (Hermes asks first)" onClick={() => post({ type: "worktreeDiscard" })}>
        Discard
      </button>
    </div>
  );
});
