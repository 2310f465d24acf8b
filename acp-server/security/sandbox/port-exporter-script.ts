// The in-sandbox half of exporting a background command's servers (Linux, bubblewrap without the
// host network). The command has a loopback of its own, so a dev server it starts is invisible
// to the browser. This small Node program runs the command, watches its network namespace's
// listening TCP ports (/proc/net/tcp*), and tells Hermes about them over Node's IPC channel (a
// socketpair inherited through bwrap: no new unix socket is created inside, which the seccomp
// filter refuses). For each connection Hermes accepts on the host, it connects to the port
// inside and passes the connected socket's descriptor back (SCM_RIGHTS): Hermes then relays bytes
// between the two. Nothing inside can reach out through this: it only answers connections the
// host opens, to its own loopback.

/** Run as `node -e PORT_EXPORTER_SCRIPT <program> [args…]` with an IPC channel on fd 3. */
export const PORT_EXPORTER_SCRIPT = `
const net = require("node:net"), cp = require("node:child_process"), fs = require("node:fs"), os = require("node:os");
const [program, ...args] = process.argv.slice(1);
const env = { ...process.env };
delete env.NODE_CHANNEL_FD; delete env.NODE_CHANNEL_SERIALIZATION_MODE; delete env.ELECTRON_RUN_AS_NODE;
const child = cp.spawn(program, args, { stdio: "inherit", env });
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, () => child.kill(signal));
child.on("error", (error) => { process.stderr.write(error.message + "\\n"); process.exit(127); });
child.on("exit", (code, signal) => process.exit(signal ? 128 + (os.constants.signals[signal] || 0) : code ?? 1));
const send = (message, handle) => { try { if (process.connected) process.send(message, handle); } catch {} };
function listening() {
  const ports = new Set();
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try { text = fs.readFileSync(file, "utf8"); } catch { continue; }
    for (const line of text.split("\\n").slice(1)) {
      const cols = line.trim().split(/\\s+/);
      if (cols[3] === "0A") ports.add(parseInt(cols[1].split(":")[1], 16));
    }
  }
  return [...ports].filter((port) => port > 0).sort((a, b) => a - b).slice(0, 32);
}
let known = "";
const watch = setInterval(() => {
  const now = listening();
  if (now.join(",") !== known) { known = now.join(","); send({ listening: now }); }
}, 200);
watch.unref();
process.on("message", (message) => {
  if (!message || !Number.isInteger(message.open) || !Number.isInteger(message.port)) return;
  const tryHost = (hosts) => {
    const socket = net.connect({ host: hosts[0], port: message.port });
    socket.once("connect", () => send({ opened: message.open }, socket));
    socket.once("error", (error) => hosts.length > 1 ? tryHost(hosts.slice(1)) : send({ failed: message.open, error: String(error.code || error.message) }));
  };
  tryHost(["127.0.0.1", "::1"]);
});
if (process.channel) process.channel.unref();
`;
