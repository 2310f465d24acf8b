// A markdown reply, rendered block by block: while it streams, only the last block is split,
// parsed and sanitized again, and only that block's DOM is replaced. Clicks on links and code
// buttons are handled once, by delegation (markdown/link-and-code-clicks.ts).
import { Component, createRef } from "preact";
import { useRef } from "preact/hooks";
import { extendBlocks, type MarkdownBlock } from "../lib/markdown-blocks";
import { morphChildren } from "./morph";
import { renderMarkdownBlock } from "./render-markdown";

/** One block's DOM, cloned from its sanitized template (then patched); preact never looks inside it. */
class Block extends Component<{ template: DocumentFragment }> {
  override shouldComponentUpdate(next: { template: DocumentFragment }): boolean {
    return next.template !== this.props.template;
  }
  private el = createRef<HTMLDivElement>();
  override componentDidMount(): void {
    this.el.current?.replaceChildren(this.props.template.cloneNode(true));
  }
  override componentDidUpdate(): void {
    // The streaming block: patch, so only the text that grew is restyled and laid out again.
    if (this.el.current) morphChildren(this.el.current, this.props.template);
  }
  override render() {
    return <div class="md-block" ref={this.el} />;
  }
}

/** The rendered template per block object: blocks carried over from the previous text keep theirs. */
const templateOf = new WeakMap<MarkdownBlock, DocumentFragment>();

function blockTemplate(block: MarkdownBlock): DocumentFragment {
  let template = templateOf.get(block);
  if (template === undefined) {
    template = renderMarkdownBlock(block.text, block.closed);
    templateOf.set(block, template);
  }
  return template;
}

export function Markdown({ text }: { text: string }) {
  const last = useRef<{ text: string; blocks: MarkdownBlock[] } | undefined>(undefined);
  if (last.current?.text !== text) last.current = { text, blocks: extendBlocks(last.current, text) };
  return (
    <div class="md">
      {last.current.blocks.map((block, i) => (
        <Block key={i} template={blockTemplate(block)} />
      ))}
    </div>
  );
}
