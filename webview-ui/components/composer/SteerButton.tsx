// While a turn runs, the composer's text can go two ways: "Steer" hands it to the running turn
// now (the agent adds it before its next step, without stopping; Ctrl/Cmd+Enter), "Queue" sends
// it as the next prompt once the turn ends (the send button; Enter).
export function SteerButton({ disabled, onSteer }: { disabled: boolean; onSteer: () => void }) {
  return (
    <button
      type="button"
      class="button small secondary steer-button"
      data-testid="steer"
      title="Send as steer: guide the running turn now, without stopping it (Ctrl+Enter)"
      aria-keyshortcuts="Control+Enter Meta+Enter"
      disabled={disabled}
      onClick={onSteer}
    >
      Steer
    </button>
  );
}

/** Ctrl+Enter (Cmd+Enter on macOS) sends as steer while a turn runs. */
export function isSteerKey(e: { key: string; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }): boolean {
  return e.key === "Enter" && (e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey;
}
