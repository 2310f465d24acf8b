// The host half of exporting a sandboxed background command's servers (see
// port-exporter-script.ts). The exporter reports the ports the command listens on inside its own
// network namespace; when the browser tools open one (browser_navigate to 127.0.0.1:PORT or
// localhost:PORT), Hermes listens on the same number on the host's loopback (127.0.0.1 and ::1),
// so the URL a dev server prints works, and relays each connection to a socket the exporter opens
// inside. Only on demand, and never for ports below 1024 or of well-known services (databases,
// docker, vault…): a sandboxed command must not be able to squat a port a real service of the
// user's would take, and read what the user's programs send it. Messages from inside are
// untrusted: checked by zod, at most 32 ports. A port already taken on the host is not exported.
import type { ChildProcess } from "node:child_process";
import net from "node:net";
import * as z from "zod";
import { createLogger } from "../../util/log";

const log = createLogger("port-export");

const FromInside = z.union([
  z.object({ listening: z.array(z.number().int().min(1).max(65_535)).max(32) }),
  z.object({ opened: z.number().int() }),
  z.object({ failed: z.number().int(), error: z.string().max(200) }),
]);

/** How long a host connection waits for the socket from inside before it is dropped. */
const OPEN_TIMEOUT_MS = 10_000;

/**
 * Ports never exported: those of services a user runs locally, which other programs connect to
 * by habit (a squatter would receive their credentials).
 */
const SERVICE_PORTS = new Set([1433, 1521, 2375, 2376, 2379, 2380, 3306, 5432, 5672, 5984, 6379, 6443, 8200, 8500, 9042, 9200, 9300, 11211, 15672, 27017, 27018]);

export function exportablePort(port: number): boolean {
  return port >= 1024 && !SERVICE_PORTS.has(port);
}

export interface ExportedPorts {
  /** Ports the command listens on inside its sandbox. */
  listening: number[];
  /** Ports reachable on the host's loopback (opened by the browser tools). */
  exported: number[];
  /** Ports the command listens on that another program holds on the host. */
  taken: number[];
}

/** What exposing a port came to. */
export type ExposeResult = "exported" | "taken" | "not-listening" | "not-exportable";

export class PortExport {
  private readonly servers = new Map<number, net.Server[]>();
  private readonly taken = new Set<number>();
  private inside = new Set<number>();
  private readonly pending = new Map<number, net.Socket>();
  private nextId = 1;
  private readonly exporting = new Map<number, Promise<void>>();
  private closed = false;

  constructor(private readonly child: ChildProcess) {
    // The channel must not keep Hermes alive, nor a dead command's exporter.
    child.channel?.unref();
    child.on("message", (message: unknown, handle: unknown) => this.receive(message, handle));
    child.once("exit", () => this.close());
  }

  ports(): ExportedPorts {
    const sorted = (ports: Iterable<number>) => [...ports].sort((a, b) => a - b);
    return { listening: sorted(this.inside), exported: sorted(this.servers.keys()), taken: sorted(this.taken) };
  }

  /** Makes `port` reachable on the host's loopback, if the command listens on it inside. */
  async expose(port: number): Promise<ExposeResult> {
    if (!this.inside.has(port)) return "not-listening";
    if (!exportablePort(port)) return "not-exportable";
    if (this.servers.has(port)) return "exported";
    if (this.taken.has(port)) return "taken";
    this.exporting.set(port, this.exporting.get(port) ?? this.export(port).finally(() => this.exporting.delete(port)));
    await this.exporting.get(port);
    return this.servers.has(port) ? "exported" : "taken";
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const servers of this.servers.values()) for (const server of servers) server.close();
    this.servers.clear();
    for (const socket of this.pending.values()) socket.destroy();
    this.pending.clear();
  }

  private receive(message: unknown, handle: unknown): void {
    const parsed = FromInside.safeParse(message);
    if (!parsed.success || this.closed) {
      if (handle instanceof net.Socket) handle.destroy();
      return;
    }
    const data = parsed.data;
    if ("listening" in data) return void this.follow(new Set(data.listening));
    const client = this.pending.get("opened" in data ? data.opened : data.failed);
    if (!client) {
      if (handle instanceof net.Socket) handle.destroy();
      return;
    }
    this.pending.delete("opened" in data ? data.opened : data.failed);
    if ("failed" in data || !(handle instanceof net.Socket)) {
      client.destroy();
      return;
    }
    relay(client, handle);
  }

  /** Keeps the ports listened on inside; stops exporting those no longer listened on. */
  private follow(inside: Set<number>): void {
    this.inside = inside;
    for (const [port, servers] of this.servers) {
      if (inside.has(port)) continue;
      for (const server of servers) server.close();
      this.servers.delete(port);
    }
    for (const port of [...this.taken]) if (!inside.has(port)) this.taken.delete(port);
  }

  private async export(port: number): Promise<void> {
    const servers: net.Server[] = [];
    for (const host of ["127.0.0.1", "::1"]) {
      const server = net.createServer((client) => this.accept(client, port));
      const ok = await new Promise<boolean>((resolve) => {
        server.once("error", (error: NodeJS.ErrnoException) => {
          // No IPv6 loopback on this machine is fine; a port someone holds is not exported.
          if (error.code !== "EADDRNOTAVAIL" && error.code !== "EAFNOSUPPORT") log.info("a sandboxed server's port is taken on the host", { port, host, code: error.code });
          resolve(false);
        });
        server.listen(port, host, () => resolve(true));
      });
      if (ok) {
        server.unref();
        servers.push(server);
      } else if (host === "127.0.0.1") {
        this.taken.add(port);
        return;
      }
    }
    if (this.closed) for (const server of servers) server.close();
    else this.servers.set(port, servers);
  }

  private accept(client: net.Socket, port: number): void {
    const id = this.nextId++;
    this.pending.set(id, client);
    client.once("error", () => client.destroy());
    const timer = setTimeout(() => {
      if (this.pending.delete(id)) client.destroy();
    }, OPEN_TIMEOUT_MS);
    timer.unref();
    client.once("close", () => {
      clearTimeout(timer);
      this.pending.delete(id);
    });
    try {
      this.child.send({ open: id, port });
    } catch {
      // expected: the command (and its exporter) ended; the connection is dropped
      client.destroy();
    }
  }
}

function relay(a: net.Socket, b: net.Socket): void {
  a.pipe(b);
  b.pipe(a);
  const end = () => {
    a.destroy();
    b.destroy();
  };
  a.once("error", end);
  b.once("error", end);
  a.once("close", end);
  b.once("close", end);
}
