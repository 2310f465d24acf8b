// A markdown reply, rendered block by block: while it streams, only the last block is split,
// parsed and sanitized again, and only that block's DOM is replaced. Clicks on links and code
// buttons are handled once, by delegation (markdown/link-and-code-clicks.ts).
import { Component, createRef } from "preact";
import { useRef } from "preact/hooks";
import { extendBlocks, type MarkdownBlock } from "../lib/markdown-blocks";
import { morphChildren } from "./morph";
import { renderMarkdownBlocks } from "./render-markdown";

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

/** Each block's template: those carried over keep theirs, the rest are rendered together (one sanitize pass). */
function blockTemplates(blocks: MarkdownBlock[]): DocumentFragment[] {
  const templates = blocks.map((block) => templateOf.get(block));
  const missing = blocks.filter((_, i) => templates[i] === undefined);
  if (missing.length === 0) return templates as DocumentFragment[];
  const rendered = renderMarkdownBlocks(missing);
  let k = 0;
  return templates.map((template, i) => {
    if (template !== undefined) return template;
    const made = rendered[k++];
    templateOf.set(blocks[i], made);
    return made;
  });
}

export function Markdown({ text }: { text: string }) {
  const last = useRef<{ text: string; blocks: MarkdownBlock[] } | undefined>(undefined);
  if (last.current?.text !== text) last.current = { text, blocks: extendBlocks(last.current, text) };
  const templates = blockTemplates(last.current.blocks);
  return (
    <div class="md">
      {templates.map((template, i) => (
        <Block key={i} template={template} />
      ))}
    </div>
  );
}
