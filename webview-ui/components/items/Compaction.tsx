// A divider where the context was compacted: older turns were summarised for the model. The
// summary is there to read on demand.
import type { CompactionItem } from "../../../common/panel-state/types";
import { useExpanded } from "../../bridge/view-state";
import { Icon, Spinner } from "../icons";

export function Compaction({ item }: { item: CompactionItem }) {
  const [open, setOpen] = useExpanded(item.id, false);
  const running = item.status === "started" || item.status === "in_progress" || item.status === "running";
  const failed = item.status === "failed";
  const label = running ? "Compacting context…" : failed ? "Context compaction failed" : "Context compacted";
  return (
    <div class="compaction">
      <div class="compaction-rule">
        {running ? <Spinner /> : <Icon name="compress" />}
        {item.summary ? (
          <button type="button" class="link-button" aria-expanded={open} onClick={() => setOpen(!open)}>
            {label} · {open ? "hide summary" : "show summary"}
          </button>
        ) : (
          <span>{label}</span>
        )}
      </div>
      {open && item.summary && <div class="compaction-summary">{item.summary}</div>}
    </div>
  );
}
