// Session modes: how much runs without asking the user.
export const SESSION_MODES = [
  { id: "default", name: "Default", description: "Ask before every edit and before dangerous commands." },
  { id: "accept_edits", name: "Accept edits", description: "Edit files inside the workspace without asking; still ask for dangerous commands and anything outside." },
  { id: "plan", name: "Plan", description: "Read-only: explore and propose a plan. No edits, no commands that change anything." },
  { id: "dont_ask", name: "Don't ask", description: "Run everything without asking, except commands Hermes never runs." },
] as const;

export type SessionMode = (typeof SESSION_MODES)[number]["id"];

export function isSessionMode(value: string): value is SessionMode {
  return SESSION_MODES.some((mode) => mode.id === value);
}
