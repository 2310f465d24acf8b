// What the agent's background learning review saved (a memory note or a skill), as a compact
// card: what was learned, where it went, Undo (`/learned undo <id>`, answered by the agent)
// and Open (the file in an editor). Replayed sessions show the same card.
import { post } from "../../bridge/vscode-api";
import type { LearnedItem } from "../../../common/panel-state/types";
import { Icon } from "../icons";

export function LearnedCard({ item }: { item: LearnedItem }) {
  return (
    <div class="learned-card" role="note" aria-label={`Learned: ${item.what}`} data-testid="learned-card">
      <Icon name="bulb" />
      <div class="learned-text">
        <span class="learned-what">Learned: {item.what}</span>
        <span class="learned-where" title={item.where}>
          {item.learned === "skill" ? "skill" : "memory"} · {baseName(item.where)}
        </span>
      </div>
      <div class="learned-actions">
        <button type="button" class="button secondary" data-testid="learned-open" onClick={() => post({ type: "openLocation", path: item.where })}>
          Open
        </button>
        <button type="button" class="button secondary" data-testid="learned-undo" title={`/learned undo ${item.changeId}`} onClick={() => post({ type: "prompt", text: `/learned undo ${item.changeId}` })}>
          Undo
        </button>
      </div>
    </div>
  );
}

function baseName(file: string): string {
  const parts = file.split(/[\\/]/).filter(Boolean);
  return parts.length >= 2 && parts[parts.length - 1] === "SKILL.md" ? `${parts[parts.length - 2]}/SKILL.md` : (parts[parts.length - 1] ?? file);
}
