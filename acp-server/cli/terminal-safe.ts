// Text from outside Hermes (a command's output, a file's lines and name, a tool's title, the
// model's thoughts, a server's message) on the user's terminal. Written as it came, its escape
// sequences would drive the terminal: OSC 52 writes the clipboard, OSC 0 sets the window title,
// concealed or erased text hides part of a command the user is asked to approve, and 8-bit C1
// codes act as ESC on some terminals. Two ways, by what the text is for:
// - terminalSafe: output to read. Escape sequences go, a line redrawn with \r shows its last
//   state (common/terminal-text.ts, as the panel shows it), other control characters go.
// - visibleControls (common/visible-controls.ts, the panel's permission cards use it too): what
//   the user approves (a command, a file's changed lines). Nothing is dropped: each control
//   character, and each bidirectional override that could reorder what is seen, shows as a
//   visible stand-in, so what the user reads is what runs.
import { terminalText } from "../../common/terminal-text";

// eslint-disable-next-line no-control-regex -- these are exactly the characters no terminal text should carry
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function terminalSafe(text: string): string {
  return withoutControls(terminalText(text));
}

/** Every control character but tab and newline removed, nothing else touched (a code block keeps its text as written). */
export function withoutControls(text: string): string {
  return text.replace(CONTROLS, "");
}

/** `text` as written to `stream`: made terminal-safe when a terminal reads it; a pipe or a file gets it as it is (data for scripts). */
export function forStream(stream: { isTTY?: boolean }, text: string): string {
  return stream.isTTY === true ? terminalSafe(text) : text;
}

/** Outside text (a listing, a log, a session) on stdout, terminal-safe on a terminal (forStream). */
export function printText(text: string): void {
  process.stdout.write(forStream(process.stdout, text));
}
