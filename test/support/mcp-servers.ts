// Real MCP servers for tests: the reference servers from npm (server-everything in its
// stdio, streamableHttp and sse modes; server-filesystem) and test/fixtures/mcp's
// misbehaving one. HTTP servers run in their own process group and are killed with it.
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { freePickedPort } from "../../acp-server/util/loopback-port";
import { ROOT } from "./acp-harness";
import { waitForOutput } from "./wait";

export const EVERYTHING = path.join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
export const FILESYSTEM = path.join(ROOT, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
export const MISBEHAVING = path.join(ROOT, "test/fixtures/mcp/misbehaving-server.mjs");

/** A stdio server as ACP's session/new takes it. */
export function stdioServer(name: string, args: string[], env: Record<string, string> = {}) {
  return { name, command: process.execPath, args, env: Object.entries(env).map(([key, value]) => ({ name: key, value })) };
}

/**
 * A port for a server the test starts a moment later. Not a port-0 probe: the kernel hands such
 * ports to outgoing connections too, and one of a parallel test's could take it in that moment.
 */
export const freePort = freePickedPort;

export interface HttpMcpServer {
  url: string;
  close(): void;
}

/** server-everything over HTTP: `streamableHttp` (endpoint /mcp) or `sse` (endpoint /sse). */
export async function startEverythingHttp(mode: "streamableHttp" | "sse"): Promise<HttpMcpServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [EVERYTHING, mode], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const url = `http://127.0.0.1:${port}/${mode === "sse" ? "sse" : "mcp"}`;
  // Both modes print "... on port N" on stderr once listening.
  await waitForOutput(child.stderr!, /on port \d+/, 15_000, `server-everything ${mode} listening on ${port}`);
  return {
    url,
    close: () => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
    },
  };
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Pids the misbehaving fixture wrote to its PID_FILE. */
export function pidsIn(file: string): number[] {
  try {
    return readFileSync(file, "utf8").split("\n").filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * Waits until none of `pids` is alive (or the time is up); returns those still alive. These are
 * not our children (the agent started them), so no exit event reaches us: this polls.
 */
export async function waitForExit(pids: number[], ms = 8_000): Promise<number[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const alive = pids.filter(isAlive);
    if (alive.length === 0 || Date.now() > deadline) return alive;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Pids of running processes whose environment holds `MCP_TEST_TAG=<tag>` (Linux /proc). */
export function pidsTagged(tag: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, "utf8");
      if (environ.split("\0").includes(`MCP_TEST_TAG=${tag}`)) found.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours
    }
  }
  return found;
}
