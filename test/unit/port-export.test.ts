// The host half of forwarding a sandboxed background command's ports (port-export.ts), against a
// real child process on a real IPC channel that says what a hostile command inside could say:
// ports of well-known services and below 1024 are never forwarded, malformed or oversized
// messages change nothing, a port another program holds is reported as taken, and an "opened"
// answer without a socket drops the connection instead of hanging it. The relay itself, through a
// real network namespace, is tested with bubblewrap in test/core/browser-sandboxed-server.test.ts.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import net from "node:net";
import { test } from "node:test";
import { exportablePort, PortExport } from "../../acp-server/security/sandbox/port-export";
import { freeExportablePort } from "../support/sandbox";

/** A child that sends `messages` in order then "sent", and answers every {open} with `answer(open)`. */
function hostileChild(messages: unknown[], answer: string): ChildProcess {
  const script = `
    for (const m of ${JSON.stringify(messages)}) process.send(m);
    process.send("sent");
    process.on("message", (m) => { if (m && m.open) process.send((${answer})(m.open)); });
    setInterval(() => {}, 1000);`;
  return spawn(process.execPath, ["-e", script], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
}

/** Resolves once the child said "sent": the exporter, listening first, has handled everything before it. */
function allSent(child: ChildProcess): Promise<void> {
  // One lasting listener: several messages arrive in one read and are emitted in one go.
  return new Promise((resolve) => child.on("message", (message: unknown) => message === "sent" && resolve()));
}

test("service ports and ports below 1024 are never exportable; ordinary dev ports are", () => {
  for (const port of [22, 80, 443, 1023, 3306, 5432, 6379, 27017, 2375, 8200, 9200, 11211]) assert.equal(exportablePort(port), false, String(port));
  for (const port of [3000, 5173, 8000, 8080, 4200, 1024]) assert.equal(exportablePort(port), true, String(port));
});

test("what a hostile command says: service ports are refused, malformed and oversized lists ignored, a held port is taken, an answer without a socket drops the connection", async () => {
  const free = await freeExportablePort();
  const held = net.createServer();
  await new Promise<void>((resolve) => held.listen(0, "127.0.0.1", resolve));
  const heldPort = (held.address() as net.AddressInfo).port;
  const good = [80, 5432, free, heldPort].sort((a, b) => a - b);
  const child = hostileChild([{ listening: good }, { listening: "everything" }, { listening: Array.from({ length: 100 }, (_, i) => 20_000 + i) }, { opened: "x" }, "not an object"], "(open) => ({ opened: open })");
  const exporter = new PortExport(child);
  const sent = allSent(child);
  try {
    await sent;
    assert.deepEqual(exporter.ports().listening, good, "the malformed and oversized lists changed nothing");
    assert.equal(await exporter.expose(5432), "not-exportable");
    assert.equal(await exporter.expose(80), "not-exportable");
    assert.equal(await exporter.expose(4), "not-listening");
    assert.equal(await exporter.expose(heldPort), "taken");
    assert.equal(await exporter.expose(free), "exported");
    assert.deepEqual(exporter.ports().exported, [free]);
    assert.deepEqual(exporter.ports().taken, [heldPort]);
    // The child answers "opened" without a socket: the host connection is closed, not left hanging.
    const client = net.connect(free, "127.0.0.1");
    client.on("error", () => {}); // expected: a reset is one way of being dropped
    await once(client, "close");
  } finally {
    exporter.close();
    child.kill();
    held.close();
  }
  assert.deepEqual(exporter.ports().exported, [], "closed: nothing forwarded any more");
});
