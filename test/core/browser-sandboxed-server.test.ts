// "Start the dev server and check the page": a server started in the background by the terminal
// tool runs in Hermes's OS sandbox, which gives commands a network of their own. Its listening
// port is exported to the host's loopback at the same number (port-export.ts), so the browser
// opens the URL the server printed, and `process poll` says where it is reachable. With the host
// network allowed there is nothing to export and the server is reached directly. Real
// bubblewrap, a real Chromium, the agent in process on real pipes, a scripted model.
import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import type { RecordedRequest } from "../support/scripted-http";
import { makeTempDir, scriptedConfig, startAgent } from "../support/in-process-agent";
import { SANDBOX_CAPABILITY } from "../../extension/terminal-sandbox";
import { freeExportablePort, sandboxSkip } from "../support/sandbox";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();
const CHROMIUM = "/usr/bin/chromium";
const skip = sandboxSkip() || (existsSync(CHROMIUM) ? false : `no ${CHROMIUM} on this machine`);

function toolResult(request: RecordedRequest, id: string): string {
  const message = request.body.messages.findLast((m: { role: string; tool_call_id?: string }) => m.role === "tool" && m.tool_call_id === id) as { content: string } | undefined;
  assert.ok(message, `no result for ${id}`);
  return message.content;
}

/**
 * The scripted model polls the server's process until it listens (a real model does the same):
 * a short pause between polls, up to about 60 s on a loaded machine.
 */
const POLL_LIMIT = 600;
const pause = () => new Promise((resolve) => setTimeout(resolve, 100));

const CASES = [
  { hostNetwork: false, editorTerminals: false, name: "with a network of its own" },
  { hostNetwork: true, editorTerminals: false, name: "with the host network" },
  // A client whose terminals Hermes's extension sandboxes: the background server runs as Hermes's own process instead, so its port can be forwarded.
  { hostNetwork: false, editorTerminals: true, name: "with a network of its own, for a client with sandboxed editor terminals," },
];

for (const { hostNetwork, editorTerminals, name } of CASES) {
  test(`a dev server started in the background in the sandbox ${name} is reachable from the browser at the port it printed`, { skip }, async () => {
    const model = scripted();
    const project = await makeTempDir("hermes-devserver-");
    const port = await freeExportablePort(); // the server inside the sandbox takes it
    // The server prints a line once it listens; the model polls for it before browsing.
    const server = `node -e 'require("http").createServer((q,s)=>s.end("<title>Dev</title><h1>Dev server up</h1>")).listen(${port},"127.0.0.1",()=>console.log("listening"))'`;
    const terminal = { sandbox: "on", ...(hostNetwork ? { network: { allowed_domains: ["*"] } } : {}) };
    const hermes = await startAgent({
      config: scriptedConfig(model.url, { tools: { enabled: ["browser"] }, browser: { executable: CHROMIUM }, terminal }),
      permission: () => "allow_once",
      ...(editorTerminals ? { serveTerminal: true, clientCapabilities: { _meta: SANDBOX_CAPABILITY } } : {}),
    });
    try {
      await hermes.initialize();
      const { sessionId } = await hermes.newSession(project);
      // Browse once the server said it listens and, in its own network, once the port is exported.
      const pollUntilListening = (request: RecordedRequest, id: string, direct: boolean): { toolCalls: { id: string; name: string; arguments: object }[] } =>
        /listening/.test(toolResult(request, id)) && (direct || new RegExp(`listening in the sandbox on ${port}`).test(toolResult(request, id)))
          ? { toolCalls: [{ id: "nav", name: "browser_navigate", arguments: { url: `http://127.0.0.1:${port}/` } }] }
          : { toolCalls: [{ id: `${id}+`, name: "process", arguments: { action: "poll", id: "proc_1" } }] };
      let polls = 0;
      // One scripted step at a time, each queuing the next until the turn ends: nothing is left
      // in the shared queue for the next test. The session's title is asked of the same server.
      const step = {
        handler: async (request: RecordedRequest) => {
          const last = [...request.body.messages].reverse().find((m: { role: string }) => m.role === "tool") as { tool_call_id: string } | undefined;
          if (last?.tool_call_id === "stop") return { text: "done" };
          model.enqueue(step);
          if (!last) return { text: "Dev server" };
          if (last.tool_call_id === "nav") return { toolCalls: [{ id: "stop", name: "process", arguments: { action: "kill", id: "proc_1" } }] };
          if (++polls > POLL_LIMIT) return { toolCalls: [{ id: "stop", name: "process", arguments: { action: "kill", id: "proc_1" } }] };
          const next = pollUntilListening(request, last.tool_call_id, hostNetwork);
          if (next.toolCalls[0]?.name === "process") await pause();
          return next;
        },
      };
      model.enqueue({ toolCalls: [{ id: "run", name: "terminal", arguments: { command: server, background: true } }] }, step);
      const first = model.requests.length;
      await hermes.prompt(sessionId, "start the dev server and open it");
      const requests = model.requests.slice(first);
      const navigated = requests.find((request) => request.body.messages.some((m: { role: string; tool_call_id?: string }) => m.role === "tool" && m.tool_call_id === "nav"));
      assert.ok(navigated, `the server never said it listens (${polls} polls): ${JSON.stringify(requests.map((r) => r.body.messages.filter((m: { role: string }) => m.role === "tool"))).slice(-1500)}`);
      const result = toolResult(navigated, "nav");
      assert.match(result, /Dev server up/, result);
      if (editorTerminals) assert.equal(hermes.terminals.created.length, 0, "the background server did not go to an editor terminal");
      const listening = requests.map((request) => request.body.messages.filter((m: { role: string }) => m.role === "tool").map((m: { content: string }) => m.content).join("\n")).join("\n");
      if (hostNetwork) assert.doesNotMatch(listening, /listening in the sandbox/, "nothing to forward with the host network");
      else assert.match(listening, new RegExp(`listening in the sandbox on ${port}: browser_navigate to http://127\\.0\\.0\\.1:PORT/ reaches it`), "process poll says the server listens and how to reach it");
    } finally {
      await hermes.close();
    }
  });
}

// The walk: start the dev server, open it, see the bug on the page, fix the file, open it
// again, and show the user a screenshot, which reaches the client as an image block of the card.
test("the walk: start a dev server, see a bug on the page, fix it, and show a screenshot of the result", { skip }, async () => {
  const model = scripted();
  const project = await makeTempDir("hermes-devwalk-");
  writeFileSync(path.join(project, "index.html"), "<title>Cart</title><h1>Cart</h1><p id=total>Total: NaN</p>\n");
  const port = await freeExportablePort(); // the server inside the sandbox takes it
  // Serves index.html from disk on every request, as a dev server does.
  const server = `node -e 'const fs=require("fs");require("http").createServer((q,s)=>s.end(fs.readFileSync("index.html"))).listen(${port},"127.0.0.1",()=>console.log("listening"))'`;
  const hermes = await startAgent({ config: scriptedConfig(model.url, { tools: { enabled: ["browser"] }, browser: { executable: CHROMIUM }, terminal: { sandbox: "on" } }), permission: () => "allow_once" });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const url = `http://127.0.0.1:${port}/`;
    const rest = [
      { toolCalls: [{ id: "fix", name: "write_file", arguments: { path: "index.html", content: "<title>Cart</title><h1>Cart</h1><p id=total>Total: 42</p>\n" } }] },
      { toolCalls: [{ id: "again", name: "browser_navigate", arguments: { url } }] },
      { toolCalls: [{ id: "shot", name: "browser_screenshot", arguments: {} }] },
      { toolCalls: [{ id: "stop", name: "process", arguments: { action: "kill", id: "proc_1" } }] },
      { text: "Fixed: the total now shows 42. Screenshot above." },
    ];
    // Polls until the server listens (an event the exporter reports), then browses and goes on.
    let polls = 0;
    const poll = {
      handler: async (request: RecordedRequest) => {
        const last = [...request.body.messages].reverse().find((m: { role: string }) => m.role === "tool") as { tool_call_id: string; content: string } | undefined;
        if (!last) {
          model.enqueue(poll);
          return { text: "Cart" };
        }
        if (last.tool_call_id === "poll" && new RegExp(`listening in the sandbox on ${port}`).test(last.content)) {
          model.enqueue(...rest);
          return { toolCalls: [{ id: "see", name: "browser_navigate", arguments: { url } }] };
        }
        if (++polls > POLL_LIMIT) return { text: "the server never listened" };
        await pause();
        model.enqueue(poll);
        return { toolCalls: [{ id: "poll", name: "process", arguments: { action: "poll", id: "proc_1" } }] };
      },
    };
    model.enqueue({ toolCalls: [{ id: "run", name: "terminal", arguments: { command: server, background: true } }] }, poll);
    const first = model.requests.length;
    assert.equal((await hermes.prompt(sessionId, "start the dev server, check the cart page and fix what is wrong")).stopReason, "end_turn");
    const requests = model.requests.slice(first).filter((request) => request.body.messages.some((m: { role: string }) => m.role === "tool"));
    const resultOf = (id: string) => toolResult(requests.findLast((request) => request.body.messages.some((m: { tool_call_id?: string }) => m.tool_call_id === id))!, id);
    assert.match(resultOf("poll"), new RegExp(`listening in the sandbox on ${port}`), `${polls} polls`);
    assert.match(resultOf("see"), /Total: NaN/, "the model saw the bug on the page");
    assert.match(resultOf("again"), /Total: 42/, "the fix shows on the page");
    const card = hermes.updates
      .map((n) => n.update)
      .filter((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId.endsWith("shot"))
      .flatMap((u) => (u.sessionUpdate === "tool_call_update" ? (u.content ?? []) : []));
    assert.ok(card.some((c) => c.type === "content" && c.content.type === "image" && c.content.mimeType === "image/png"), "the user sees the screenshot in the card");
  } finally {
    await hermes.close();
  }
});
