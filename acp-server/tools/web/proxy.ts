// Which HTTP proxy web_fetch goes through, and the tunnel through it. `web.proxy` in config.yaml
// names one ("off": none); unset, the environment's HTTPS_PROXY / HTTP_PROXY (lower case first,
// as curl reads them) apply, an https URL falling back to HTTP_PROXY, and NO_PROXY exempts hosts.
// Every request goes through a CONNECT tunnel, after guarded-fetch.ts resolved and checked the
// target like a direct one: a plain http target is tunnelled to the checked address itself (the
// proxy cannot resolve the name to somewhere else); an https one by name, since its certificate
// must prove the name whatever address the proxy reaches.
import http from "node:http";
import type { Socket } from "node:net";
import { ToolError } from "../registry";

export interface ProxySettings {
  /** config.yaml's web.proxy: a URL, "off", or unset (the environment decides). */
  configured?: string;
  env: Record<string, string | undefined>;
}

/** The proxy for `target`, or undefined to connect directly. Throws for a proxy Hermes cannot use. */
export function proxyFor(target: URL, settings: ProxySettings): URL | undefined {
  if (settings.configured === "off") return undefined;
  const read = (name: string) => settings.env[name.toLowerCase()]?.trim() || settings.env[name.toUpperCase()]?.trim() || undefined;
  const text = settings.configured ?? (target.protocol === "https:" ? (read("https_proxy") ?? read("http_proxy")) : read("http_proxy"));
  if (!text) return undefined;
  if (exempt(target, read("no_proxy") ?? "")) return undefined;
  let proxy: URL;
  try {
    // "host:port" without a scheme, as some environments write it, is an http proxy.
    proxy = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`);
  } catch {
    throw new ToolError(`The proxy setting "${redactProxy(text)}" is not a URL (${settings.configured ? "web.proxy" : "HTTPS_PROXY / HTTP_PROXY"})`);
  }
  if (proxy.protocol !== "http:") throw new ToolError(`web_fetch supports http:// proxies, not ${proxy.protocol.replace(/:$/, "")}:// (${redactProxy(text)})`);
  return proxy;
}

/** NO_PROXY: "*", or host names (a leading dot or not: the name and its subdomains) and addresses, each optionally with ":port". */
export function exempt(target: URL, noProxy: string): boolean {
  const host = target.hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  const port = target.port || (target.protocol === "https:" ? "443" : "80");
  for (const raw of noProxy.split(/[\s,]+/)) {
    let entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === "*") return true;
    let entryPort: string | undefined;
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    if (bracketed) [, entry = "", entryPort] = bracketed;
    else if (entry.split(":").length === 2) [entry = "", entryPort] = entry.split(":");
    if (entryPort && entryPort !== port) continue;
    const bare = entry.replace(/^\*?\./, "");
    if (bare && (host === bare || host.endsWith(`.${bare}`))) return true;
  }
  return false;
}

/** A proxy URL for messages: its password masked. */
export function redactProxy(text: string): string {
  return text.replace(/\/\/([^:@/]*):[^@/]*@/, "//$1:***@");
}

/**
 * A socket to `authority` (host:port) through `proxy`'s CONNECT. The proxy's refusal is a clear
 * error naming it and its status; its address is the user's own choice, so it is not checked.
 */
export function tunnel(proxy: URL, authority: string, signal: AbortSignal): Promise<Socket> {
  const headers: Record<string, string> = { host: authority };
  if (proxy.username) headers["proxy-authorization"] = `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString("base64")}`;
  const name = `the proxy ${proxy.host}`;
  return new Promise((resolve, reject) => {
    const request = http.request({ host: proxy.hostname.replace(/^\[(.*)\]$/, "$1"), port: proxy.port || 80, method: "CONNECT", path: authority, headers, agent: false, signal });
    request.once("connect", (response, socket) => {
      if (response.statusCode !== 200) {
        socket.destroy();
        reject(new ToolError(`Could not fetch through ${name}: it refused the tunnel to ${authority} (${response.statusCode ?? "no status"} ${response.statusMessage ?? ""})`.trim()));
        return;
      }
      resolve(socket);
    });
    request.once("response", (response) => {
      response.resume();
      reject(new ToolError(`Could not fetch through ${name}: it answered CONNECT with ${response.statusCode ?? "no status"} instead of a tunnel`));
    });
    request.once("error", (error) => reject(signal.aborted ? (signal.reason ?? error) : new ToolError(`Could not reach ${name}: ${error.message}`)));
    request.end();
  });
}
