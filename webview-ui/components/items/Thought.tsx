// The model's reasoning: collapsed by default (it is long and rarely read), "Thinking…" while
// it streams.
import type { ThoughtItem } from "../../../common/panel-state/types";
import { useExpanded } from "../../bridge/view-state";
import { Icon, Spinner } from "../icons";

export function Thought({ item, streaming }: { item: ThoughtItem; streaming: boolean }) {
  const [open, setOpen] = useExpanded(item.id, false);
  const bodyId = `thought-${item.id}`;
  return (
    <div class="thought">
      <button type="button" class="disclosure" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen(!open)}>
        <Icon name="chevron" class={open ? "rot90" : ""} />
        {streaming ? <Spinner /> : <Icon name="bulb" />}
        <span>{streaming ? "Thinking…" : "Thought"}</span>
      </button>
      {open && (
        <div id={bodyId} class="thought-body">
          {item.text}
        </div>
      )}
    </div>
  );
}
