// A command the agent ran in an editor terminal: its live output (from ChatState.terminals,
// fed by the host), a status line, and "Show terminal" while the command runs. The card
// subscribes to its own terminal only, so output re-renders nothing else.
import { useMemo } from "preact/hooks";
import { chatStore } from "../../bridge/chat-store";
import { useStore } from "../../bridge/external-store";
import { post } from "../../bridge/vscode-api";
import { terminalText } from "../../../common/terminal-text";
import { hasExited } from "../../../common/panel-state/terminals";
import type { TerminalOutput as TerminalState } from "../../../common/panel-state/types";
import { Icon, Spinner } from "../icons";
import { OutputPre } from "./OutputPre";

export function TerminalOutput({ terminalId, expandKey, title }: { terminalId: string; expandKey: string; title?: string }) {
  const terminal = useStore(chatStore, (state) => state.terminals?.[terminalId]);
  const text = useMemo(() => terminalText(terminal?.output ?? ""), [terminal?.output]);
  if (!terminal) {
    // A host that did not report this terminal: all there is to show is its id.
    return (
      <div class="terminal-ref">
        <Icon name="terminal" />
        <span>
          Terminal <code>{terminalId}</code>
        </span>
      </div>
    );
  }
  const running = !hasExited(terminal);
  const status = <TerminalStatus terminal={terminal} running={running} terminalId={terminalId} />;
  return (
    <div class="terminal-output" data-testid="terminal-output" data-state={running ? "running" : "exited"}>
      {text.trim() !== "" ? (
        // The card keeps the tail; "Show all" opens the whole output (spilled to a file by the host) in an editor.
        <OutputPre text={text} expandKey={expandKey} tail follow={running} status={status} onShowAll={() => post({ type: "openTerminalOutput", terminalId, title: title ?? "Command output" })} />
      ) : (
        <div class="output-foot">
          {!running && <span class="output-status muted">(no output)</span>}
          {status}
        </div>
      )}
    </div>
  );
}

function TerminalStatus({ terminal, running, terminalId }: { terminal: TerminalState; running: boolean; terminalId: string }) {
  const failed = !running && (terminal.signal || terminal.exitCode !== 0);
  return (
    <>
      <span class={`output-status${failed ? " failed" : ""}`}>
        {running ? (
          <>
            <Spinner /> Running
          </>
        ) : terminal.signal ? (
          `killed by ${terminal.signal}`
        ) : (
          `exit ${terminal.exitCode ?? "?"}`
        )}
        {terminal.truncated && <span class="muted"> · earlier output in “Show all”</span>}
      </span>
      {running && (
        <button type="button" class="link-button" title="Reveal this command's VS Code terminal" onClick={() => post({ type: "showTerminal", terminalId })}>
          <Icon name="terminal" /> Show terminal
        </button>
      )}
    </>
  );
}
