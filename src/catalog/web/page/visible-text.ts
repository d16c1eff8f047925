// The text of an element as a reader sees it: textContent runs "Title</h1><p>Text" together as
// "TitleText", so block boundaries, line breaks and table cells become whitespace here.

const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'caption', 'dd', 'details', 'div', 'dl', 'dt', 'figcaption', 'figure', 'footer',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'td',
  'th', 'tr', 'ul',
]);

export function visibleText(root: Node): string {
  const parts: string[] = [];
  const walk = (node: Node) => {
    if (node.nodeType === 3) {
      parts.push(node.textContent ?? '');
      return;
    }
    if (node.nodeType !== 1) return;
    const block = BLOCK.has(node.nodeName.toLowerCase());
    if (block) parts.push(' ');
    for (const child of Array.from(node.childNodes)) walk(child);
    if (block) parts.push(' ');
  };
  walk(root);
  return parts.join('').replace(/\s+/g, ' ').trim();
}
