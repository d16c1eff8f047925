// HTML -> blocks: Mozilla Readability (the Firefox Reader View algorithm) finds the main content
// on a linkedom DOM; a walk over that content keeps headings, paragraphs, list items, code and
// table rows. When Readability finds no article (short or unusual pages), the whole body is
// walked with navigation, scripts and forms removed.
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { squash, type Block, type ReadDocument } from './document.ts';
import { NAVIGATION_LINK } from './read-markdown.ts';
import { layoutBlocks, nameOf, preformatLineBreaks, type DomNode } from './read-html-layout.ts';

const DROPPED = new Set(['script', 'style', 'noscript', 'template', 'svg', 'canvas', 'iframe', 'object', 'embed', 'form', 'button', 'select', 'textarea', 'input', 'head']);
const CHROME = new Set(['nav', 'header', 'footer', 'aside']);
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const ITEMS = new Set(['li', 'dt', 'dd']);
const PROSE = new Set(['p', 'blockquote', 'figcaption', 'caption', 'summary', 'address']);
const BLOCKS = new Set(['div', 'section', 'article', 'main', 'ul', 'ol', 'dl', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'figure', 'details', 'hr', 'br', 'center', 'body', 'html', 'pre', ...HEADINGS, ...ITEMS, ...PROSE]);

/** Heading text without Sphinx/MkDocs permalink markers ("¶", "#"). */
const headingText = (text: string) => squash(text).replace(/\s*[¶#§]+$/u, '').trim();

class BlockWalker {
  readonly blocks: Block[] = [];
  readonly codeTerms: string[] = [];
  private inline = '';
  private readonly kinds: ('paragraph' | 'item')[] = ['paragraph'];
  /** A <dt> waiting for its <dd>: they make one item, "term — meaning". */
  private term: string | undefined;

  constructor(private readonly skipChrome: boolean) {}

  walk(node: DomNode): void {
    if (node.nodeType === 3) {
      this.inline += node.textContent ?? '';
      return;
    }
    if (node.nodeType !== 1) return;
    const name = nameOf(node);
    if (DROPPED.has(name) || (this.skipChrome && CHROME.has(name))) return;
    if (node.getAttribute?.('hidden') !== null && node.getAttribute?.('hidden') !== undefined) return;
    if (name === 'a' && NAVIGATION_LINK.test(node.textContent ?? '')) return;
    if (name === 'code' || name === 'kbd' || name === 'tt') {
      const code = squash(node.textContent ?? '');
      if (code && code.length <= 60) this.codeTerms.push(code);
    }
    if (!BLOCKS.has(name)) {
      if (name === 'img') this.inline += ' ';
      this.children(node);
      return;
    }
    this.flush(name === 'dd');
    const laidOut = layoutBlocks(node);
    if (laidOut) {
      this.blocks.push(...laidOut);
      return;
    }
    if (HEADINGS.has(name)) {
      const text = headingText(node.textContent ?? '');
      if (text) this.blocks.push({ kind: 'heading', level: Number(name[1]), text });
    } else if (name === 'pre') {
      const text = (node.textContent ?? '').replace(/\s+$/, '');
      if (text.trim()) this.blocks.push({ kind: 'code', text });
    } else if (name === 'tr') {
      const cells = Array.from(node.childNodes)
        .filter((cell) => ['td', 'th'].includes(nameOf(cell)))
        .map((cell) => squash(cell.textContent ?? ''))
        .filter(Boolean);
      if (cells.length > 1) this.blocks.push({ kind: 'row', text: cells.join(' | ') });
      else if (cells.length === 1) this.children(node); // a layout table: read its content as text
    } else if (name === 'dt') {
      // Texinfo and Sphinx end a definition's term with a permalink ("¶").
      this.term = headingText(node.textContent ?? '') || undefined;
      this.codeTermsOf(node);
    } else if (name === 'dd' && this.term !== undefined) {
      const term = this.term;
      this.term = undefined;
      const start = this.blocks.length;
      this.kinds.push('item');
      this.children(node);
      this.flush();
      this.kinds.pop();
      const meaning = this.blocks.splice(start).map((block) => block.text).join(' ');
      this.blocks.push({ kind: 'item', text: meaning ? `${term} — ${meaning}` : term });
    } else if (ITEMS.has(name)) {
      this.kinds.push('item');
      this.children(node);
      this.flush();
      this.kinds.pop();
    } else {
      this.children(node);
    }
    this.flush(name === 'dt');
  }

  /** Code terms inside a node read whole (a <dt>). */
  private codeTermsOf(node: DomNode): void {
    for (const child of Array.from(node.childNodes)) {
      const name = nameOf(child);
      if (name === 'code' || name === 'kbd' || name === 'tt') {
        const code = squash(child.textContent ?? '');
        if (code && code.length <= 60) this.codeTerms.push(code);
      } else if (child.nodeType === 1) this.codeTermsOf(child);
    }
  }

  private children(node: DomNode): void {
    for (const child of Array.from(node.childNodes)) this.walk(child);
  }

  flush(keepTerm = false): void {
    if (this.term !== undefined && !keepTerm) {
      this.blocks.push({ kind: 'item', text: this.term });
      this.term = undefined;
    }
    // A dropped link can leave a space before the full stop: "use net() ."
    const text = squash(this.inline).replace(/\s+([.,;:!?])(?=\s|$)/g, '$1');
    this.inline = '';
    if (text) this.blocks.push({ kind: this.kinds.at(-1)!, text });
  }
}

function blocksOf(root: DomNode, skipChrome: boolean): { blocks: Block[]; codeTerms: string[] } {
  const walker = new BlockWalker(skipChrome);
  walker.walk(root);
  walker.flush();
  return { blocks: walker.blocks, codeTerms: walker.codeTerms };
}

/**
 * Readability shortens a page title at its separators ("The Closure API (libffi: the portable …)"
 * becomes "the portable … library)"); a part that starts in lower case or leaves a bracket open is a
 * fragment, and the page's own title is better.
 */
function readableTitle(cleaned: string, pageTitle: string): string {
  const open = (cleaned.match(/[([]/g) ?? []).length;
  const close = (cleaned.match(/[)\]]/g) ?? []).length;
  const fragment = cleaned !== pageTitle && (open !== close || /^\p{Ll}/u.test(cleaned));
  return !cleaned || fragment ? pageTitle : cleaned;
}

/**
 * Links set in running text are replaced by their text before Readability scores the page: it drops short blocks
 * that are mostly link text, which took a line like "<a>Stability: 1</a>.1 - Active development" with them.
 * Links standing alone (menus, lists of links) keep their markup, so navigation is still recognised as such.
 */
function unwrapLinksInText(document: Document): void {
  for (const link of Array.from(document.querySelectorAll('a'))) {
    const parent = link.parentElement;
    if (!parent || link.querySelector('img') || NAVIGATION_LINK.test(link.textContent ?? '')) continue;
    const ownText = Array.from(parent.childNodes)
      .filter((node) => node.nodeType === 3)
      .map((node) => node.textContent ?? '')
      .join('');
    if ((ownText.match(/[\p{L}\p{N}]/gu) ?? []).length >= 10) link.replaceWith(document.createTextNode(link.textContent ?? ''));
  }
}

const wrapFragment = (html: string) => (/<html[\s>]/i.test(html) ? html : `<!doctype html><html><head></head><body>${html}</body></html>`);

export function readHtml(content: string): ReadDocument {
  const html = wrapFragment(content);
  const { document } = parseHTML(html);
  const pageTitle = squash(document.querySelector('title')?.textContent ?? '');
  const firstH1 = squash(document.querySelector('h1')?.textContent ?? '');
  const bodyText = squash(document.body?.textContent ?? '');
  unwrapLinksInText(document as unknown as Document);
  preformatLineBreaks(document as unknown as Document);
  // Readability expects a browser DOM; linkedom provides the parts it uses.
  const article = new Readability(document as unknown as Document, { charThreshold: 200 }).parse();
  const articleText = squash(article?.textContent ?? '');

  let read: { blocks: Block[]; codeTerms: string[] };
  // Readability may keep one fragment of a page made of many small sections; then the body is better.
  if (article?.content && articleText.length >= Math.min(500, bodyText.length * 0.5)) {
    read = blocksOf(parseHTML(wrapFragment(article.content)).document.body as unknown as DomNode, false);
  } else {
    read = blocksOf(parseHTML(html).document.body as unknown as DomNode, true);
  }
  // Readability derives its title from <title>; without one it may take any line, so the first <h1> comes first.
  const title = pageTitle ? readableTitle(squash(article?.title ?? ''), pageTitle) : firstH1 || squash(article?.title ?? '');
  return { format: 'html', ...(title ? { title } : {}), blocks: read.blocks, codeTerms: read.codeTerms };
}
