// What a user approves, shown as it is: each control character (ESC, CR, BEL, C1 codes) and each
// bidirectional override or isolate (which reorders the text around it: "Trojan Source") becomes a
// visible stand-in, so hidden, erased or reordered text cannot pass for something else. Used where
// a command, a file's changed lines or an option naming them is put before the user to decide on:
// the terminal chat's prompts (cli/) and the panel's permission cards (webview-ui/).

// eslint-disable-next-line no-control-regex -- these are exactly the characters to show
const SHOWN_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every character above as a visible stand-in (tabs and newlines stay). */
export function visibleControls(text: string): string {
  return text.replace(SHOWN_CONTROLS, (char) => {
    const code = char.codePointAt(0)!;
    // C0 as the Unicode control pictures (ESC → ␛), DEL as ␡; the rest by code point.
    if (code < 0x20) return String.fromCodePoint(0x2400 + code);
    if (code === 0x7f) return "␡";
    return `<U+${code.toString(16).toUpperCase().padStart(4, "0")}>`;
  });
}
