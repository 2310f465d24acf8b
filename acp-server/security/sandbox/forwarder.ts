// The in-sandbox half of the network allowlist (Linux): the sandbox has no network namespace
// access at all, so before the command starts, this small Node program listens on
// 127.0.0.1:<port> inside the sandbox and relays each connection to the host proxy's unix
// socket (bound in read-only). Then it runs the command and exits with its status. It costs one
// extra Node start per command, paid only when an allowlist is configured.

/** Run as `node -e FORWARDER_SCRIPT <socket> <port> <program> [args…]`. */
export const FORWARDER_SCRIPT = `
const net = require("node:net"), cp = require("node:child_process"), os = require("node:os");
const [socket, port, program, ...args] = process.argv.slice(1);
const relay = net.createServer((client) => {
  const upstream = net.connect(socket);
  client.pipe(upstream); upstream.pipe(client);
  client.on("error", () => upstream.destroy()); upstream.on("error", () => client.destroy());
});
relay.on("error", (error) => { process.stderr.write("hermes sandbox: the network relay failed: " + error.message + "\\n"); process.exit(126); });
relay.listen(Number(port), "127.0.0.1", () => {
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  const child = cp.spawn(program, args, { stdio: "inherit", env });
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, () => child.kill(signal));
  child.on("error", (error) => { process.stderr.write(error.message + "\\n"); process.exit(127); });
  child.on("exit", (code, signal) => process.exit(signal ? 128 + (os.constants.signals[signal] || 0) : code ?? 1));
});
`;
