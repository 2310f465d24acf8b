// The browser tools over a real ACP connection (the built bundle on stdio, a real Chromium, a
// scripted model on the real wire format): the model opens a test site on 127.0.0.1, clicks by
// the ref it read in the snapshot, fills a form, reads the console, and its next requests hold
// the changed text and the page's error; a screenshot reaches the model as an image part; a
// request to a private, non-loopback address is refused before any connection; no Chromium is
// left once the agent is gone, even after kill -9.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { after, before, test } from "node:test";
import { scriptedConfig, makeTempDir, startHermes } from "../support/acp-harness";
import type { RecordedRequest } from "../support/scripted-http";
import { useScriptedModel } from "../support/scripted-model";
import { startServer, type TestServer } from "../support/web-servers";

const scripted = useScriptedModel();
let site: TestServer;

const PAGE = `<!doctype html><html><head><title>Dev app</title></head><body>
<button onclick="document.getElementById('status').textContent='Saved by the button'">Save</button>
<p id="status">Not saved yet</p>
<form onsubmit="event.preventDefault(); document.getElementById('greeting').textContent='Hello, ' + document.getElementById('name').value">
<label for="name">Your name</label><input id="name"><button type="submit">Greet</button></form>
<p id="greeting"></p>
<script>console.error("widget exploded: missing config"); fetch("/api/missing");</script>
</body></html>`;

before(async () => {
  site = await startServer({
    "/": (_req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE),
    // Redirects the browser to the cloud metadata address: must be refused, never connected.
    "/to-metadata": (_req, res) => res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end(),
  });
});

after(async () => {
  await site.close();
});

/** The text of the tool result for `id` in a request body (Chat Completions shape). */
function toolResult(request: RecordedRequest, id: string): string {
  const message = request.body.messages.find((m: { role: string; tool_call_id?: string }) => m.role === "tool" && m.tool_call_id === id) as { content: string } | undefined;
  assert.ok(message, `no result for ${id}`);
  return message.content;
}

/** The ref the latest snapshot gave an element, read by the model as a real model would. */
function refIn(text: string, pattern: RegExp): string {
  const line = text.split("\n").find((l) => pattern.test(l));
  const ref = line && /\[ref=(\w+)\]/.exec(line)?.[1];
  assert.ok(ref, `no ref for ${pattern} in:\n${text}`);
  return ref;
}

function chromiumChildrenOf(pid: number): number[] {
  // Every process whose ancestry includes pid (Chromium forks zygotes and renderers).
  const table = execFileSync("ps", ["-eo", "pid=,ppid=,comm="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .map(([p, pp, comm]) => ({ pid: Number(p), ppid: Number(pp), comm: comm ?? "" }));
  const ours = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const row of table) {
      if (ours.has(row.pid) || !ours.has(row.ppid)) continue;
      ours.add(row.pid);
      grew = true;
    }
  }
  return table.filter((row) => ours.has(row.pid) && /chrom/i.test(row.comm)).map((row) => row.pid);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    // expected: ESRCH, the process is gone
    return false;
  }
}

/** The processes of `pids` still alive once they had up to 15 s to exit (polls the processes, bounded). */
async function survivors(pids: number[]): Promise<number[]> {
  const deadline = Date.now() + 15_000;
  while (pids.some(alive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  return pids.filter(alive);
}

test("the model navigates, clicks by ref, fills the form and reads the console; a screenshot reaches it as an image", async () => {
  const model = scripted();
  const url = `${site.origin}/`;
  model.enqueue(
    { toolCalls: [{ id: "n1", name: "browser_navigate", arguments: { url } }] },
    { handler: (request) => ({ toolCalls: [{ id: "c1", name: "browser_click", arguments: { ref: refIn(toolResult(request, "n1"), /button "Save"/) } }] }) },
    { toolCalls: [{ id: "s1", name: "browser_snapshot", arguments: {} }] },
    { handler: (request) => ({ toolCalls: [{ id: "t1", name: "browser_type", arguments: { ref: refIn(toolResult(request, "s1"), /textbox "Your name"/), text: "Ada", submit: true } }] }) },
    { toolCalls: [{ id: "s2", name: "browser_snapshot", arguments: {} }, { id: "k1", name: "browser_console", arguments: {} }] },
    { toolCalls: [{ id: "p1", name: "browser_screenshot", arguments: {} }] },
    { text: "The page works." },
  );
  const hermes = await startHermes({ config: scriptedConfig(model.url, { tools: { enabled: ["browser"] } }), permission: "allow" });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(await makeTempDir("hermes-browser-"));
    const first = model.requests.length;
    assert.equal((await hermes.prompt(sessionId, "Check the dev app")).stopReason, "end_turn");
    const requests = model.requests.slice(first);
    assert.match(toolResult(requests[1]!, "n1"), /untrusted data from a web page/);
    assert.match(toolResult(requests[3]!, "s1"), /Saved by the button/, "the click changed the page and the model saw it");
    const after = requests[5]!;
    assert.match(toolResult(after, "s2"), /Hello, Ada/, "the form was filled and submitted");
    // Each browser result carries the page's events since the last one: the failing fetch may
    // land after the navigation's result, in whichever result comes next.
    const consoleText = [toolResult(requests[1]!, "n1"), toolResult(requests[2]!, "c1"), toolResult(requests[3]!, "s1"), toolResult(requests[4]!, "t1"), toolResult(after, "s2"), toolResult(after, "k1")].join("\n");
    assert.match(consoleText, /widget exploded: missing config/);
    assert.match(consoleText, /\/api\/missing: HTTP 404/);
    assert.doesNotMatch(consoleText, /googleapis|accounts\.google/, "Chromium's own background traffic is not the page's");
    // The screenshot: an image part in the next request (after the tool results, this API's only place for it).
    const shotRequest = requests[6]!;
    const imageTurn = shotRequest.body.messages.at(-1) as { role: string; content: { type: string; image_url?: { url: string } }[] };
    assert.equal(imageTurn.role, "user");
    const image = imageTurn.content.find((part) => part.type === "image_url");
    assert.ok(image?.image_url?.url.startsWith("data:image/png;base64,iVBOR"), "a PNG image part");
    // Over ACP the screenshot is an image content block of the tool card, for any client to show.
    const shotCard = hermes.updates
      .map((n) => n.update)
      .filter((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId.endsWith("p1"))
      .flatMap((u) => (u.sessionUpdate === "tool_call_update" ? (u.content ?? []) : []));
    const block = shotCard.find((c) => c.type === "content" && c.content.type === "image");
    assert.ok(block?.type === "content" && block.content.type === "image" && block.content.mimeType === "image/png" && block.content.data.startsWith("iVBOR"), `an ACP image block in the card: ${JSON.stringify(shotCard).slice(0, 300)}`);
    // session/close closes the session's browser while the agent runs on.
    const chromium = chromiumChildrenOf(hermes.child.pid!);
    assert.ok(chromium.length > 0, "the browser ran as the agent's child");
    await hermes.agent.request("session/close", { sessionId });
    assert.deepEqual(await survivors(chromium), [], "no Chromium left after session/close");
  } finally {
    await hermes.close();
  }
});

test("a redirect to a private non-loopback address is refused before any connection; no Chromium outlives a kill -9", async () => {
  const model = scripted();
  model.enqueue({ toolCalls: [{ id: "n1", name: "browser_navigate", arguments: { url: `${site.origin}/to-metadata` } }] }, { text: "Refused." });
  const hermes = await startHermes({ config: scriptedConfig(model.url, { tools: { enabled: ["browser"] } }), permission: "allow" });
  let chromium: number[];
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(await makeTempDir("hermes-browser-"));
    const first = model.requests.length;
    assert.equal((await hermes.prompt(sessionId, "Open it")).stopReason, "end_turn");
    const result = toolResult(model.requests[first + 1]!, "n1");
    assert.match(result, /169\.254\.169\.254/);
    assert.match(result, /Refused: 169\.254\.169\.254 is not on the public internet/);
    chromium = chromiumChildrenOf(hermes.child.pid!);
    assert.ok(chromium.length > 0, "the browser ran as the agent's child");
    process.kill(hermes.child.pid!, "SIGKILL");
  } finally {
    await hermes.close();
  }
  // Chromium reads its control pipe from the agent: when the agent dies, it quits.
  assert.deepEqual(await survivors(chromium), [], "no Chromium left after kill -9 of the agent");
});
