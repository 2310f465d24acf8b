// Opens a link in the user's browser from the terminal (a sign-in page), where there is one:
// xdg-open on Linux with a display, open on macOS, the URL handler on Windows. Best effort: the
// link is always printed too, so a machine without a browser (ssh, a container) only loses the
// shortcut. The link comes from a server (an MCP server's sign-in page), so no shell ever reads it:
// `cmd /c start` would run `|`, `<`, `>` or `%VAR%` in a query string as cmd syntax.
import { spawn } from "node:child_process";

export function openInBrowser(url: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.HERMES_NO_BROWSER || !/^https?:\/\//i.test(url)) return false;
  const [command, args] =
    process.platform === "darwin" ? ["open", [url]] : process.platform === "win32" ? ["rundll32", ["url.dll,FileProtocolHandler", url]] : ["xdg-open", [url]];
  if (process.platform === "linux" && !env.DISPLAY && !env.WAYLAND_DISPLAY) return false;
  try {
    const child = spawn(command, args, { stdio: "ignore", detached: true });
    child.on("error", () => {
      // expected: no opener installed; the printed link is enough
    });
    child.unref();
    return true;
  } catch {
    // expected: spawning failed outright; the printed link is enough
    return false;
  }
}
