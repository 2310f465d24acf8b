// A markdown reply, rendered block by block: while it streams, only the last block's HTML
// changes, so only that block's DOM is replaced. Clicks on links and code buttons are handled
// once, by delegation, in markdown/link-and-code-clicks.ts.
import { useMemo } from "preact/hooks";
import { splitBlocks } from "../lib/markdown-blocks";
import { memo } from "../components/memo";
import { renderMarkdownBlock } from "./render-markdown";

const Block = memo(function Block({ html }: { html: string }) {
  return <div class="md-block" dangerouslySetInnerHTML={{ __html: html }} />;
});

export function Markdown({ text }: { text: string }) {
  const blocks = useMemo(() => splitBlocks(text), [text]);
  return (
    <div class="md">
      {blocks.map((block, i) => (
        <Block key={i} html={renderMarkdownBlock(block.text, block.closed)} />
      ))}
    </div>
  );
}
