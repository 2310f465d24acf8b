// Brings a rendered block's DOM in line with a new template by touching only what differs.
// A streamed chunk usually lengthens one text node; replacing the block's whole subtree
// instead would make the browser restyle and relayout all of it, once per chunk.

export function morphChildren(target: Node, source: Node): void {
  const from = source.childNodes;
  for (let i = 0; i < from.length; i++) {
    const next = from[i];
    const current = target.childNodes[i];
    if (!current) {
      target.appendChild(next.cloneNode(true));
    } else if (current.nodeType !== next.nodeType || current.nodeName !== next.nodeName) {
      target.replaceChild(next.cloneNode(true), current);
    } else if (next.nodeType === Node.ELEMENT_NODE) {
      syncAttributes(current as Element, next as Element);
      morphChildren(current, next);
    } else if (current.nodeValue !== next.nodeValue) {
      current.nodeValue = next.nodeValue;
    }
  }
  while (target.childNodes.length > from.length) target.lastChild?.remove();
}

function syncAttributes(target: Element, source: Element): void {
  for (const { name, value } of Array.from(source.attributes)) {
    if (target.getAttribute(name) !== value) target.setAttribute(name, value);
  }
  for (const { name } of Array.from(target.attributes)) {
    if (!source.hasAttribute(name)) target.removeAttribute(name);
  }
}
