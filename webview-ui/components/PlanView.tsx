// The agent's plan / todo list, pinned above the composer and collapsible. The header
// shows progress, so a folded plan still tells how far the agent is.
import type { PlanEntry } from "@agentclientprotocol/sdk";
import { useExpanded } from "../bridge/view-state";
import { Icon, Spinner } from "./icons";
import { memo } from "./memo";

export const PlanView = memo(function PlanView({ plan }: { plan: PlanEntry[] }) {
  const [open, setOpen] = useExpanded("plan", true);
  if (plan.length === 0) return null;
  const done = plan.filter((e) => e.status === "completed").length;
  const current = plan.find((e) => e.status === "in_progress");
  return (
    <section class="plan" aria-label="Plan">
      <button type="button" class="disclosure plan-head" aria-expanded={open} aria-controls="plan-list" onClick={() => setOpen(!open)}>
        <Icon name="chevron" class={open ? "rot90" : ""} />
        <span class="plan-title">Plan</span>
        <span class="muted">
          {done}/{plan.length} done
        </span>
        {!open && current && <span class="plan-current truncate muted">· {current.content}</span>}
      </button>
      {open && (
        <ol class="plan-list" id="plan-list">
          {plan.map((entry, i) => (
            <li key={i} class={`plan-entry plan-${entry.status}`}>
              <span class="plan-status" aria-label={entry.status.replace("_", " ")}>
                {entry.status === "completed" ? <Icon name="check" /> : entry.status === "in_progress" ? <Spinner /> : <Icon name="circle" />}
              </span>
              <span class="plan-text">{entry.content}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
});
