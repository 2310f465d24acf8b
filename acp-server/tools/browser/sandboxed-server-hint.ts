// Why a dev server the agent started cannot be opened in the browser: commands in the OS sandbox
// (bubblewrap) get a network namespace of their own unless they have the host's network, so a
// server listening on the sandbox's 127.0.0.1 is not the browser's 127.0.0.1. Without this the
// model sees only "connection refused" and keeps restarting the server.
import type { SessionToolState } from "../context";

/** The hint to add to a failed navigation, or "" when it does not apply. */
export function sandboxedServerHint(url: URL, failure: string, state: SessionToolState): string {
  // Refused when Chromium connects itself; an empty response when the guard proxy (which loopback
  // goes through too) could not connect.
  if (!/ERR_CONNECTION_REFUSED|ERR_EMPTY_RESPONSE/.test(failure) || !isLoopbackHost(url.hostname)) return "";
  const isolated = [...state.processes.values()].filter((entry) => entry.handle.ownNetwork);
  if (isolated.length === 0) return "";
  const ids = isolated.map((entry) => entry.id).join(", ");
  return (
    `\nNote: background commands (${ids}) run in Hermes's OS sandbox with a network of their own, so a server they start on ${url.host} is not reachable from the browser. ` +
    "Ask the user to allow the host network for commands (terminal.network.allowed_domains: [\"*\"] in config.yaml) or to start the dev server outside Hermes; do not keep restarting it."
  );
}

function isLoopbackHost(host: string): boolean {
  const name = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  return name === "localhost" || name.endsWith(".localhost") || name === "::1" || /^127\./.test(name);
}
