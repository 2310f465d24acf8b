// Context window use from usage_update: a thin bar, "12.3k / 200k tokens", and the cost so far.
import type { ChatState } from "../../common/panel-state/types";
import { formatCost, formatTokens, usageRatio } from "../lib/format";
import { memo } from "./memo";

export const UsageMeter = memo(function UsageMeter({ usage }: { usage?: ChatState["usage"] }) {
  if (!usage) return null;
  const ratio = usageRatio(usage.used, usage.size);
  const level = ratio >= 0.9 ? "high" : ratio >= 0.7 ? "mid" : "low";
  const label = `${formatTokens(usage.used)} / ${formatTokens(usage.size)} tokens`;
  const bar = (el: HTMLElement | null) => {
    // Width from JS: the CSP forbids style attributes in markup, not CSSOM writes.
    if (el) el.style.width = `${(ratio * 100).toFixed(1)}%`;
  };
  return (
    <div class={`usage level-${level}`} data-testid="usage-meter" title={`Context: ${label} (${Math.round(ratio * 100)}%)`}>
      <div class="usage-bar" role="meter" aria-label="Context used" aria-valuemin={0} aria-valuemax={usage.size} aria-valuenow={usage.used} aria-valuetext={label}>
        <div class="usage-fill" ref={bar} />
      </div>
      <span class="usage-text">{label}</span>
      {usage.cost && <span class="usage-cost">{formatCost(usage.cost)}</span>}
    </div>
  );
});
