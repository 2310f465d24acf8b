// The chat prompt on a terminal (readline over a stream that says it is a TTY, keys as a terminal
// sends them): earlier lines come back with up and with Ctrl-R's reverse search; answers to
// questions (an approval, a hidden key) never join that history.
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { test } from "node:test";
import { terminalQuestions } from "../../acp-server/cli/terminal-questions";

const CTRL_R = "\x12";
const CTRL_G = "\x07";
const UP = "\x1b[A";

function fakeTerminal(history: string[]) {
  const input = new PassThrough() as PassThrough & { isTTY: boolean; setRawMode: (on: boolean) => void };
  input.isTTY = true;
  input.setRawMode = () => undefined;
  const output = new PassThrough() as PassThrough & { isTTY: boolean; columns: number };
  output.isTTY = true;
  output.columns = 100;
  let shown = "";
  output.on("data", (chunk: Buffer) => (shown += chunk.toString("utf8")));
  const questions = terminalQuestions(input, output, { history });
  return { questions, type: (keys: string) => input.write(keys), shown: () => shown };
}

test("Ctrl-R finds the newest earlier line containing what is typed; Enter runs it; Ctrl-R again goes further back", async (t) => {
  const term = fakeTerminal(["npm run build", "deploy staging", "git status", "deploy production"]);
  t.after(() => term.questions.close());

  let answer = term.questions.line("› ");
  term.type(`${CTRL_R}dep`);
  term.type("\r");
  assert.equal(await answer, "deploy production");
  assert.match(term.shown(), /\(reverse-i-search\)`dep': deploy production/);

  answer = term.questions.line("› ");
  term.type(`${CTRL_R}dep${CTRL_R}\r`);
  assert.equal(await answer, "deploy staging", "a second Ctrl-R finds the older match");

  answer = term.questions.line("› ");
  term.type(`half typed${CTRL_R}zzz`);
  assert.match(term.shown(), /\(failed reverse-i-search\)`zzz': /);
  term.type(`${CTRL_G}\r`);
  assert.equal(await answer, "half typed", "Ctrl-G gives the line back as it was");

  answer = term.questions.line("› ");
  term.type(`${CTRL_R}npm`);
  term.type("\x1b[D"); // an arrow keeps the match for editing
  term.type("\x1b[F --watch\r"); // End, then more text
  assert.equal(await answer, "npm run build --watch");
});

test("up walks earlier chat lines; an approval's answer and a hidden key are not among them", async (t) => {
  const term = fakeTerminal(["first question"]);
  t.after(() => term.questions.close());

  let answer = term.questions.line("› ");
  term.type("second question\r");
  assert.equal(await answer, "second question");

  const approval = term.questions.ask("Allow? [y/n]");
  term.type("y\r");
  assert.equal(await approval, "y");
  const key = term.questions.askHidden("API key");
  term.type("sk-secret-typed\r");
  assert.equal(await key, "sk-secret-typed");

  answer = term.questions.line("› ");
  term.type(`${UP}\r`);
  assert.equal(await answer, "second question", "the newest chat line, not the approval or the key");

  answer = term.questions.line("› ");
  term.type(`${UP}${UP}\r`);
  assert.equal(await answer, "first question", "from the earlier chats' history");

  answer = term.questions.line("› ");
  term.type(`${CTRL_R}sk-\r`);
  assert.equal(await answer, "", "the hidden key cannot be found");
  assert.doesNotMatch(term.shown(), /sk-secret-typed/, "and was never shown");
});
