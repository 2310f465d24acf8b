// A local HTTP proxy the session's Chromium sends every non-loopback request through, so each hop
// of a redirect chain is checked (Playwright's routes see only the first): the host is resolved
// here, every address must pass the browser's network policy, and the connection goes to the
// checked address, as web_fetch's does. Refusals answer 403 and are reported to the session. A
// name that does not resolve is only a failure (502), not reported: Chromium's own background
// traffic (update and account checks) fails that way offline and is not the page's doing; a
// page's own request to such a name was already reported by the session's route guard.
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import type { AddressRange } from "../../util/ip-address";
import { NameNotResolvedError, resolveTarget } from "../web/guarded-fetch";
import { BROWSER_LOOPBACK } from "./browser-network-policy";

export interface GuardProxy {
  url: string;
  close(): void;
}

export async function startGuardProxy(allowPrivate: () => readonly AddressRange[], onRefused: (url: string, reason: string) => void): Promise<GuardProxy> {
  const check = (url: URL) => resolveTarget(url, [...BROWSER_LOOPBACK, ...allowPrivate()], AbortSignal.timeout(15_000));
  const server = http.createServer((request, response) => {
    let url: URL;
    try {
      url = new URL(request.url ?? "");
    } catch {
      // expected: only absolute-form proxy requests are served
      response.writeHead(400).end();
      return;
    }
    check(url).then(
      (target) => {
        const upstream = http.request(
          { host: target.address, family: target.family, port: url.port || 80, path: `${url.pathname}${url.search}`, method: request.method, headers: request.headers, agent: false },
          (answer) => {
            response.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(response);
          },
        );
        upstream.once("error", () => response.destroy());
        request.pipe(upstream);
      },
      (error: unknown) => {
        if (error instanceof NameNotResolvedError) {
          response.writeHead(502, { "content-type": "text/plain" }).end(error.message);
          return;
        }
        onRefused(url.href, error instanceof Error ? error.message : String(error));
        response.writeHead(403, { "content-type": "text/plain" }).end("Refused by Hermes's browser network policy.");
      },
    );
  });
  // https and WebSockets: a CONNECT tunnel to the checked address.
  server.on("connect", (request: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    const url = new URL(`https://${request.url ?? ""}`);
    socket.once("error", () => socket.destroy());
    check(url).then(
      (target) => {
        const upstream = net.connect({ host: target.address, port: Number(url.port || 443), family: target.family }, () => {
          socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
          if (head.length) upstream.write(head);
          upstream.pipe(socket);
          socket.pipe(upstream);
        });
        upstream.once("error", () => socket.destroy());
      },
      (error: unknown) => {
        if (error instanceof NameNotResolvedError) {
          socket.end("HTTP/1.1 502 Bad Gateway\r\n\r\n");
          return;
        }
        onRefused(`https://${request.url ?? ""}`, error instanceof Error ? error.message : String(error));
        socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  server.unref();
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}
