// Dev servers the agent started, seen from the browser. Commands in the OS sandbox (bubblewrap)
// get a network namespace of their own unless they have the host's network, so a server on the
// sandbox's 127.0.0.1 is not the browser's. Hermes's own background processes have their ports
// forwarded when the browser opens a loopback URL (forwardSandboxedPort); where that cannot be
// done (commands in the editor's terminals, a taken or well-known port) the navigation says why,
// instead of a bare "connection refused" that leads the model to restart the server again and again.
import { inRange, parseAddress } from "../../util/ip-address";
import type { SessionToolState } from "../context";
import { BROWSER_LOOPBACK } from "./browser-network-policy";

/** The hint to add to a failed navigation, or "" when it does not apply. */
export function sandboxedServerHint(url: URL, failure: string, state: SessionToolState): string {
  // Refused when Chromium connects itself; an empty response when the guard proxy (which loopback
  // goes through too) could not connect.
  if (!/ERR_CONNECTION_REFUSED|ERR_EMPTY_RESPONSE/.test(failure) || !isLoopbackHost(url.hostname)) return "";
  const port = urlPort(url);
  const isolated = [...state.processes.values()].filter((entry) => entry.handle.ownNetwork);
  // Exported to the host's loopback: the server is reachable, whatever failed was something else.
  if (isolated.some((entry) => entry.handle.exportedPorts?.()?.exported.includes(port))) return "";
  // Commands whose servers can be forwarded (Hermes's own processes) but do not listen there: not started yet, or another port.
  const forwardable = isolated.filter((entry) => entry.handle.exportedPorts?.());
  if (forwardable.length === isolated.length && isolated.length > 0) {
    const listening = forwardable.flatMap((entry) => entry.handle.exportedPorts?.()?.listening ?? []);
    return `\nNote: no background command listens on port ${port} in Hermes's OS sandbox${listening.length ? ` (they listen on ${listening.join(", ")})` : " yet; poll it with the process tool until it says it listens"}.`;
  }
  if (isolated.length === 0) return "";
  const ids = isolated.map((entry) => entry.id).join(", ");
  return (
    `\nNote: background commands (${ids}) run in Hermes's OS sandbox with a network of their own, so a server they start on ${url.host} is not reachable from the browser. ` +
    "Ask the user to allow the host network for commands (terminal.network.allowed_domains: [\"*\"] in config.yaml) or to start the dev server outside Hermes; do not keep restarting it."
  );
}

/** localhost, or an address in the browser's loopback ranges (the same classification its network policy uses). */
function isLoopbackHost(host: string): boolean {
  const name = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  const bytes = parseAddress(name);
  return bytes !== undefined && BROWSER_LOOPBACK.some((range) => inRange(bytes, range));
}

export function urlPort(url: URL): number {
  return Number(url.port || (url.protocol === "https:" ? 443 : 80));
}

/**
 * Before the browser opens a loopback URL: every port the session's background commands listen
 * on inside the sandbox is forwarded to the host's loopback (port-export.ts): the page's own
 * calls to an API server on another port work too. Returns a note when the URL's port cannot be
 * forwarded, "" otherwise.
 */
export async function forwardSandboxedPort(url: URL, state: SessionToolState): Promise<string> {
  if (!isLoopbackHost(url.hostname)) return "";
  const port = urlPort(url);
  let note = "";
  for (const entry of state.processes.values()) {
    const listening = entry.handle.exportedPorts?.()?.listening ?? [];
    const results = await Promise.all(listening.map(async (other) => ({ port: other, result: await entry.handle.exposePort?.(other) })));
    const result = results.find((exposed) => exposed.port === port)?.result;
    if (note || result === undefined || result === "exported" || result === "not-listening") continue;
    note =
      result === "taken"
        ? `Note: ${entry.id} listens on port ${port} in Hermes's OS sandbox, but another program holds port ${port} on this machine: this page is that program's. Start the server on a free port.\n`
        : `Note: ${entry.id} listens on port ${port} in Hermes's OS sandbox, which Hermes does not forward (ports below 1024 and those of well-known services such as databases stay inside). Start the dev server on another port.\n`;
  }
  return note;
}
