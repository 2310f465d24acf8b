// The autocomplete popup above the composer (slash commands, @ files). The textarea keeps
// focus; it points at the active option with aria-activedescendant.
export interface Suggestion {
  key: string;
  label: string;
  detail?: string;
}

export const SUGGESTIONS_ID = "composer-suggestions";

export function Suggestions({ items, selected, onPick, title }: { items: Suggestion[]; selected: number; onPick: (index: number) => void; title: string }) {
  if (items.length === 0) return null;
  return (
    <div class="suggestions">
      <div class="suggestions-title muted">{title}</div>
      <ul id={SUGGESTIONS_ID} role="listbox" aria-label={title}>
        {items.map((item, i) => (
          <li
            key={item.key}
            id={`${SUGGESTIONS_ID}-${i}`}
            role="option"
            aria-selected={i === selected}
            class={i === selected ? "active" : ""}
            // mousedown, not click: the textarea must not lose focus first.
            onMouseDown={(e) => {
              e.preventDefault();
              onPick(i);
            }}
          >
            <span class="suggestion-label">{item.label}</span>
            {item.detail && <span class="suggestion-detail muted truncate">{item.detail}</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}
