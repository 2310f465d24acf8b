// One piece of a tool call's content: text output (in a pre, folded when long), a terminal
// reference, or a diff with "Open diff".
import type { ToolCallContent } from "@agentclientprotocol/sdk";
import { useMemo } from "preact/hooks";
import { post } from "../../bridge/vscode-api";
import { useExpanded } from "../../bridge/view-state";
import { diffLines, hunkHeader, toHunks } from "../../lib/line-diff";
import { DiffView } from "../DiffView";
import { Icon } from "../icons";
import { shortPath } from "./ToolCard";

const FOLD_LINES = 12;

export function ToolContent({ content, toolCallId, index }: { content: ToolCallContent; toolCallId: string; index: number }) {
  if (content.type === "diff") return <ToolDiff path={content.path} oldText={content.oldText ?? ""} newText={content.newText} toolCallId={toolCallId} index={index} />;
  if (content.type === "terminal") {
    return (
      <div class="terminal-ref">
        <Icon name="terminal" />
        <span>
          Terminal <code>{content.terminalId}</code>
        </span>
      </div>
    );
  }
  const block = content.content;
  if (block.type === "text") return <OutputText text={block.text} expandKey={`${toolCallId}#${index}`} />;
  if (block.type === "resource_link") return <div class="muted">{block.name}</div>;
  return null;
}

function OutputText({ text, expandKey }: { text: string; expandKey: string }) {
  const [all, setAll] = useExpanded(expandKey, false);
  const lines = useMemo(() => text.replace(/\n$/, "").split("\n"), [text]);
  const long = lines.length > FOLD_LINES;
  return (
    <div class="output">
      <pre class="output-text">{long && !all ? lines.slice(0, FOLD_LINES).join("\n") : text}</pre>
      {long && (
        <button type="button" class="link-button" aria-expanded={all} onClick={() => setAll(!all)}>
          {all ? "Show less" : `Show all ${lines.length} lines`}
        </button>
      )}
    </div>
  );
}

function ToolDiff({ path, oldText, newText, toolCallId, index }: { path: string; oldText: string; newText: string; toolCallId: string; index: number }) {
  const { hunks, added, removed } = useMemo(() => {
    const lines = diffLines(oldText, newText);
    return { hunks: toHunks(lines, 2), added: lines.filter((l) => l.op === "+").length, removed: lines.filter((l) => l.op === "-").length };
  }, [oldText, newText]);
  return (
    <div class="diff-block">
      <div class="diff-head">
        <Icon name="file" />
        <span class="truncate diff-path" title={path}>
          {shortPath(path)}
        </span>
        <span class="diff-stat">
          <span class="add-count">+{added}</span> <span class="del-count">−{removed}</span>
        </span>
        <button type="button" class="button secondary small" onClick={() => post({ type: "openDiff", id: toolCallId })}>
          <Icon name="diff" /> Open diff
        </button>
      </div>
      {hunks.map((hunk, h) => (
        <div key={h} class="hunk">
          {hunks.length > 1 && <div class="hunk-header">{hunkHeader(hunk)}</div>}
          <DiffView lines={hunk.lines} oldStart={hunk.oldStart} newStart={hunk.newStart} expandKey={`${toolCallId}#diff${index}.${h}`} limit={30} />
        </div>
      ))}
    </div>
  );
}
