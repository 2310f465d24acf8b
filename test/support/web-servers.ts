// Local HTTP servers for the web tools' tests: a route table on 127.0.0.1 that records every
// request, so a test can prove what reached the server (and what never did).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Route = (request: IncomingMessage, response: ServerResponse, body: string) => void;

export interface TestServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  /** Paths requested, in order (with the query). */
  requests: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[];
  /** Resolves when the server sees the response's socket close (a client that hung up). */
  closed(path: string): Promise<void>;
  close(): Promise<void>;
}

export async function startServer(routes: Record<string, Route>, host = "127.0.0.1"): Promise<TestServer> {
  const requests: TestServer["requests"] = [];
  const closeWaiters = new Map<string, (() => void)[]>();
  const sockets = new Set<import("node:net").Socket>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const url = request.url ?? "/";
      requests.push({ method: request.method ?? "GET", url, headers: request.headers, body });
      const pathOnly = url.split("?")[0]!;
      response.once("close", () => {
        for (const resolve of closeWaiters.get(pathOnly) ?? []) resolve();
        closeWaiters.delete(pathOnly);
      });
      const route = routes[pathOnly];
      if (!route) {
        response.writeHead(404, { "content-type": "text/plain" }).end("not found");
        return;
      }
      route(request, response, body);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    requests,
    closed: (path) =>
      new Promise<void>((resolve) => {
        const list = closeWaiters.get(path) ?? [];
        list.push(resolve);
        closeWaiters.set(path, list);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A minimal one-page PDF with `text` on it and `title` in its info dictionary. */
export function tinyPdf(text: string, title: string): Buffer {
  const stream = `BT /F1 18 Tf 20 100 Td (${text}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    `<< /Title (${title}) >>`,
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 6 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}
