// Text from the agent or a model in a VS Code notification. VS Code turns `[label](target)` in a
// notification's message into a link when the target starts with https://, http://, command: or
// file:, and a command link runs that command when clicked. A tool's title (the command to
// approve) or a chat's title (the model's words) must not carry one: a zero-width space between
// `]` and `(` leaves the text looking as it was and makes it no link. Control characters and
// bidirectional overrides show as visible stand-ins (common/visible-controls.ts), as in the panel.
import { visibleControls } from "../common/visible-controls";

export function notificationText(text: string): string {
  return visibleControls(text).replace(/\]\(/g, "]\u200B(");
}
