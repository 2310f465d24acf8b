// A misbehaving ACP agent for the delegation tests (plain Node, no build):
//   node fake-acp-agent.mjs <crash|hang> <state-dir>
// It answers initialize and session/new, then on session/prompt either crashes (exit 3 with a
// line on stderr) or hangs forever after starting a grandchild (`sleep`) in its process group.
// It writes its pid, the grandchild's pid and every method it received to <state-dir>.
import { spawn } from "node:child_process";
import { appendFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import readline from "node:readline";

const [mode, stateDir] = process.argv.slice(2);
const log = (line) => appendFileSync(path.join(stateDir, "received.log"), `${line}\n`);
const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
writeFileSync(path.join(stateDir, "agent.pid"), String(process.pid));

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  log(message.method ?? `response:${message.id}`);
  if (message.method === "session/new") writeFileSync(path.join(stateDir, "session-new.json"), JSON.stringify(message.params));
  if (message.method === "initialize") {
    send({ id: message.id, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] } });
  } else if (message.method === "session/new") {
    send({ id: message.id, result: { sessionId: "fake-session" } });
  } else if (message.method === "session/prompt") {
    if (mode === "crash") {
      process.stderr.write("fake agent: crashed on purpose\n");
      process.exit(3);
    }
    const sleeper = spawn("sleep", ["300"], { stdio: "ignore" });
    writeFileSync(path.join(stateDir, "grandchild.pid"), String(sleeper.pid));
    send({ method: "session/update", params: { sessionId: "fake-session", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "working on it…" } } } });
    // ...and never answers the prompt, nor reacts to session/cancel.
  }
});
// Ignore SIGTERM: only the SIGKILL after the grace period ends it.
process.on("SIGTERM", () => log("SIGTERM"));
