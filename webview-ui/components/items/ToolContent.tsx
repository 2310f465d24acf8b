// One piece of a tool call's content: text output (in a pre, folded when long; a fenced
// command output shows its inside and footer), an editor terminal's live output, or a diff
// with "Open diff", or an image (ToolImage.tsx).
import type { ToolCallContent } from "../../../common/acp-types";
import { useMemo } from "preact/hooks";
import { post } from "../../bridge/vscode-api";
import { parseFencedOutput } from "../../lib/fenced-output";
import { diffLines, hunkHeader, toHunks } from "../../../common/line-diff";
import { shortPath } from "../../lib/short-path";
import { DiffView } from "../DiffView";
import { Icon } from "../icons";
import { OutputPre } from "./OutputPre";
import { TerminalOutput } from "./TerminalOutput";
import { ToolImage } from "./ToolImage";

/** `fullOutput`: the agent spilled the whole output to a file, and "Show all" opens it in an editor. */
export function ToolContent({ content, toolCallId, index, title, fullOutput }: { content: ToolCallContent; toolCallId: string; index: number; title?: string; fullOutput?: boolean }) {
  if (content.type === "diff") return <ToolDiff path={content.path} oldText={content.oldText ?? ""} newText={content.newText} toolCallId={toolCallId} index={index} />;
  if (content.type === "terminal") return <TerminalOutput terminalId={content.terminalId} expandKey={`${toolCallId}#${index}`} title={title} />;
  const block = content.content;
  if (block.type === "text") return <OutputText text={block.text} expandKey={`${toolCallId}#${index}`} onShowAll={fullOutput ? () => post({ type: "openFullOutput", toolCallId }) : undefined} />;
  if (block.type === "image") return <ToolImage mimeType={block.mimeType} data={block.data} title={title} />;
  if (block.type === "resource_link") return <div class="muted">{block.name}</div>;
  return null;
}

function OutputText({ text, expandKey, onShowAll }: { text: string; expandKey: string; onShowAll?: () => void }) {
  const fenced = useMemo(() => parseFencedOutput(text), [text]);
  if (!fenced) return <OutputPre text={text} expandKey={expandKey} onShowAll={onShowAll} />;
  const footer = fenced.footer ? <span class="output-status muted">{fenced.footer}</span> : undefined;
  if (fenced.body === "") {
    return (
      <div class="output-foot">
        <span class="output-status muted">(no output)</span>
        {footer}
      </div>
    );
  }
  return <OutputPre text={fenced.body} expandKey={expandKey} status={footer} tail={onShowAll !== undefined} onShowAll={onShowAll} />;
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
