// Guidance the user sent during a turn (/steer, or "Steer" in the composer), shown where the turn
// applied it: between the step that ran before and the model's next reply.
import type { SteerItem } from "../../../common/panel-state/types";

export function SteerNote({ item }: { item: SteerItem }) {
  return (
    <div class="steer-note" data-testid="steer-note">
      <span class="steer-label">You steered:</span> <span class="steer-text">{item.text}</span>
    </div>
  );
}
