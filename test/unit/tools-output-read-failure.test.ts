// terminal and process tools when a command's output cannot be read: the model is told the read
// failed and why, never handed an empty output as if the command printed nothing.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ExitStatus, RunningCommand, ShellRunner } from "../../acp-server/tools/context";
import { processTool } from "../../acp-server/tools/process";
import { terminalTool } from "../../acp-server/tools/terminal";
import { recordingContext, tempDir } from "../support/tool-context";

type Out = Record<string, unknown>;

/** A command that exits at once with `status` and whose output() always rejects. */
function unreadableCommand(status: ExitStatus): RunningCommand {
  return {
    output: () => Promise.reject(new Error("terminal/output: connection closed")),
    waitForExit: () => Promise.resolve(status),
    kill: () => Promise.resolve(),
    release: () => Promise.resolve(),
  };
}

function shellOf(handle: RunningCommand): ShellRunner {
  return { start: () => Promise.resolve(handle) };
}

describe("output that cannot be read", () => {
  it("terminal: a foreground command's unreadable output is a read failure with its reason", async () => {
    const ctx = recordingContext({ cwd: await tempDir(), shell: shellOf(unreadableCommand({ code: 0, signal: null })) });
    const result = await terminalTool.handler(terminalTool.schema.parse({ command: "echo hi" }), ctx);
    const output = result.output as Out;
    assert.equal(output.exit_code, 0);
    assert.equal(output.output, undefined, "no empty output stands in for the unread one");
    assert.match(String(output.output_error), /could not read the command's output: terminal\/output: connection closed/i);
    assert.match(JSON.stringify(result.content), /Could not read the command's output/);
  });

  it("process list: a background process whose output cannot be read says so instead of 'running'", async () => {
    const ctx = recordingContext({ cwd: await tempDir() });
    ctx.state.processes.set("proc_1", { id: "proc_1", command: "sleep 9", cwd: ctx.cwd, startedAt: Date.now(), handle: unreadableCommand({ code: 0, signal: null }) });
    const result = await processTool.handler(processTool.schema.parse({ action: "list" }), ctx);
    const [entry] = (result.output as { processes: Out[] }).processes;
    assert.equal(entry.status, "unknown");
    assert.match(String(entry.output_error), /could not read the process's output: terminal\/output: connection closed/i);
  });
});
