// The network allowlist: a small HTTP proxy on the host that lets sandboxed commands reach only
// the domains in terminal.network.allowed_domains. HTTPS goes through CONNECT (the proxy sees
// the host name, never the content); plain HTTP through absolute-URI requests. Anything else
// gets 403 with a line the blocked-note recognises.
// On Linux the sandbox has no network at all (--unshare-net): the proxy listens on a unix socket
// inside the session's temp folder (seen as /tmp inside), and a tiny forwarder inside the
// sandbox (forwarder.ts) turns 127.0.0.1:3128 into that socket. On macOS it listens on a
// loopback port that the Seatbelt profile allows and nothing else.
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";
import { rmSync } from "node:fs";

/** `example.com` matches itself; `*.example.com` matches its subdomains. Case-insensitive. */
export function domainAllowed(host: string, domains: string[]): boolean {
  const name = host.toLowerCase().replace(/\.$/, "").replace(/^\[(.*)\]$/, "$1");
  return domains.some((domain) => (domain.startsWith("*.") ? name.endsWith(domain.slice(1)) && name.length > domain.length - 1 : name === domain));
}

/** The line a refused request answers with (blocked-note.ts matches it). */
export function refusalText(host: string): string {
  return `hermes sandbox: ${host} is not in terminal.network.allowed_domains\n`;
}

export interface AllowlistProxy {
  /** The unix socket path, or the loopback port. */
  address: string | number;
  close(): Promise<void>;
}

const running = new Map<string, Promise<AllowlistProxy>>();

/** One proxy per listening place and domain list, started on first use, closed when Hermes exits. */
export function allowlistProxy(domains: string[], listenOn: { socket: string } | { loopback: true }): Promise<AllowlistProxy> {
  const key = `${"socket" in listenOn ? listenOn.socket : "loopback"}|${[...domains].sort().join(",")}`;
  let proxy = running.get(key);
  if (!proxy) {
    proxy = startProxy(domains, listenOn);
    running.set(key, proxy);
    proxy.catch(() => running.delete(key)); // expected: a proxy that failed to start is forgotten so the next call tries again; the caller awaits the same rejection
  }
  return proxy;
}

async function startProxy(domains: string[], listenOn: { socket: string } | { loopback: true }): Promise<AllowlistProxy> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => forwardPlain(req, res, domains));
  server.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => tunnel(req, client, head, domains, sockets));
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  if ("socket" in listenOn) rmSync(listenOn.socket, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    if ("socket" in listenOn) server.listen(listenOn.socket, resolve);
    else server.listen(0, "127.0.0.1", resolve);
  });
  server.unref();
  const bound = server.address();
  const address = "socket" in listenOn ? listenOn.socket : typeof bound === "object" && bound ? bound.port : 0;
  return {
    address,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** CONNECT host:port → a raw tunnel, when the host is allowed. */
function tunnel(req: IncomingMessage, client: Socket, head: Buffer, domains: string[], sockets: Set<Socket>): void {
  const target = parseAuthority(req.url ?? "");
  client.on("error", () => client.destroy());
  if (!target || !domainAllowed(target.host, domains)) {
    client.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${refusalText(target?.host ?? String(req.url))}`);
    return;
  }
  const upstream = connect(target.port, target.host, () => {
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  sockets.add(upstream);
  upstream.once("close", () => sockets.delete(upstream));
  upstream.on("error", (error) => {
    if (client.writable) client.end(`HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\nhermes sandbox proxy: ${error.message}\n`);
  });
  client.once("close", () => upstream.destroy());
}

/** GET http://host/path (absolute URI, as clients send through an HTTP proxy) → forwarded. */
function forwardPlain(req: IncomingMessage, res: ServerResponse, domains: string[]): void {
  let url: URL;
  try {
    url = new URL(req.url ?? "");
  } catch {
    // expected: a request line that is not an absolute URL is answered 400 just below
    res.writeHead(400, { "Content-Type": "text/plain" }).end("hermes sandbox proxy: only absolute http:// URLs and CONNECT are proxied\n");
    return;
  }
  if (url.protocol !== "http:" || !domainAllowed(url.hostname, domains)) {
    res.writeHead(403, { "Content-Type": "text/plain" }).end(refusalText(url.hostname));
    return;
  }
  const upstream = httpRequest(
    { host: url.hostname, port: url.port || 80, path: `${url.pathname}${url.search}`, method: req.method, headers: withoutProxyHeaders(req.headers) },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on("error", (error) => {
    if (!res.headersSent) res.writeHead(502, { "Content-Type": "text/plain" });
    res.end(`hermes sandbox proxy: ${error.message}\n`);
  });
  req.pipe(upstream);
}

function withoutProxyHeaders(headers: IncomingMessage["headers"]): IncomingMessage["headers"] {
  const copy = { ...headers };
  delete copy["proxy-connection"];
  delete copy["proxy-authorization"];
  return copy;
}

function parseAuthority(authority: string): { host: string; port: number } | undefined {
  const match = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(authority);
  if (!match) return undefined;
  const port = Number(match[2]);
  return port > 0 && port < 65536 ? { host: match[1] as string, port } : undefined;
}
