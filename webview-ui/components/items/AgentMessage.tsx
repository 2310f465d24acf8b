// The agent's reply: streaming markdown. A caret shows while it is the growing last item.
import type { AgentItem } from "../../../common/panel-state/types";
import { Markdown } from "../../markdown/Markdown";

export function AgentMessage({ item, streaming }: { item: AgentItem; streaming: boolean }) {
  return (
    <div class={`msg msg-agent${streaming ? " streaming" : ""}`} data-testid="msg-agent" aria-busy={streaming}>
      <span class="sr-only">Hermes said:</span>
      <Markdown text={item.text} />
    </div>
  );
}
