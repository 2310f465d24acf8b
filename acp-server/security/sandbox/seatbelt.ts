// The Seatbelt profile (macOS `sandbox-exec -p`) for one sandboxed command. Pure: policy in,
// profile text out. In SBPL the last matching rule wins, so the profile goes from broad to
// narrow: allow everything, forbid writes, re-allow the writable places, forbid writes to
// what stays read-only inside them, forbid reading the credential stores, then the network.
// macOS has no PID namespace: other processes' environments are protected by the OS only
// for processes of other users. Untested on real macOS here; the text is unit-tested.
// No server dependencies: the VS Code extension imports it too.
import type { SandboxPolicy } from "./policy";

export const SANDBOX_EXEC = "/usr/bin/sandbox-exec";

export function seatbeltProfile(policy: SandboxPolicy): string {
  const lines = ["(version 1)", "(allow default)", "(deny file-write*)"];
  const writable = [...policy.writable, policy.tmpDir].map((dir) => `(subpath ${quote(dir)})`);
  // Devices every shell writes to (redirections to /dev/null, the tty of a pipe).
  writable.push('(literal "/dev/null")', '(literal "/dev/zero")', '(regex #"^/dev/fd/")', '(regex #"^/dev/tty")');
  lines.push(`(allow file-write* ${writable.join(" ")})`);
  if (policy.home) {
    // The rest of the home folder is unreadable; what a command needs of it shows through.
    lines.push(`(deny file-read* (subpath ${quote(policy.home.path)}))`, `(allow file-read-metadata (literal ${quote(policy.home.path)}))`);
    const through = [...policy.home.visible, ...policy.writable, ...policy.readOnly].map((dir) => `(subpath ${quote(dir)})`);
    if (through.length > 0) lines.push(`(allow file-read* ${through.join(" ")})`);
  }
  if (policy.readOnly.length > 0) lines.push(`(deny file-write* ${policy.readOnly.map((dir) => `(subpath ${quote(dir)})`).join(" ")})`);
  // A pinned .git: no mounts here, so the folder itself (not what is in it) may not be renamed or removed.
  if (policy.pinned?.length) lines.push(`(deny file-write* ${policy.pinned.map((dir) => `(literal ${quote(dir)})`).join(" ")})`);
  if (policy.hidden.length > 0) {
    const filters = policy.hidden.map((entry) => (entry.kind === "dir" ? `(subpath ${quote(entry.path)})` : `(literal ${quote(entry.path)})`));
    lines.push(`(deny file-read* file-write* ${filters.join(" ")})`);
  }
  if (policy.network.kind === "off") lines.push("(deny network*)");
  if (policy.network.kind === "allowlist") {
    lines.push("(deny network*)");
    if (policy.network.proxyPort) lines.push(`(allow network-outbound (remote ip "localhost:${policy.network.proxyPort}"))`);
  }
  return `${lines.join("\n")}\n`;
}

/** An SBPL string literal. */
function quote(text: string): string {
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}
