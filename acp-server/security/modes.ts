// Session modes: how much runs without asking the user.
export const SESSION_MODES = [
  { id: "default", name: "Default", description: "Ask before every file edit." },
  { id: "accept_edits", name: "Accept edits", description: "Edit files inside the workspace without asking." },
  { id: "dont_ask", name: "Don't ask", description: "Run everything without asking." },
] as const;

export type SessionMode = (typeof SESSION_MODES)[number]["id"];

export function isSessionMode(value: string): value is SessionMode {
  return SESSION_MODES.some((mode) => mode.id === value);
}
