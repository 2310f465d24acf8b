// The agent's plan / todo list, pinned above the composer and collapsible. The header
// shows progress, so a folded plan still tells how far the agent is.
import type { PlanEntry } from "../../common/acp-types";
import { useExpanded } from "../bridge/view-state";
import { Icon, Spinner } from "./icons";
import { memo } from "./memo";

/** `running`: the turn is under way. Once it ended, an entry left in progress did not finish: it stops spinning. */
export const PlanView = memo(function PlanView({ plan, running }: { plan: PlanEntry[]; running: boolean }) {
  const [open, setOpen] = useExpanded("plan", true);
  if (plan.length === 0) return null;
  const done = plan.filter((e) => e.status === "completed").length;
  const current = running ? plan.find((e) => e.status === "in_progress") : undefined;
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
            <li key={i} class={`plan-entry plan-${entryStatus(entry, running)}`} data-status={entryStatus(entry, running)}>
              <span class="plan-status" aria-label={statusText[entryStatus(entry, running)]}>
                {entry.status === "completed" ? (
                  <Icon name="check" />
                ) : entry.status === "in_progress" && running ? (
                  <Spinner />
                ) : entry.status === "in_progress" ? (
                  <Icon name="dot" />
                ) : (
                  <Icon name="circle" />
                )}
              </span>
              <span class="plan-text">{entry.content}</span>
              {entry.status === "in_progress" && !running && <span class="plan-note muted">not finished</span>}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
});

const statusText: Record<string, string> = { pending: "pending", in_progress: "in progress", completed: "completed", unfinished: "not finished" };

function entryStatus(entry: PlanEntry, running: boolean): string {
  return entry.status === "in_progress" && !running ? "unfinished" : entry.status;
}
