// HTML to a linkedom document. linkedom builds the tree as written, without the HTML parser's
// implied <html>, <head> and <body>: a page that leaves them out (valid HTML) would come back with
// an empty body. Such pages are rebuilt into the full skeleton first.
import { parseHTML } from 'linkedom';

const HTML_TAG = /<html(?=[\s>/])[^>]*>/i;
const BODY_TAG = /<body(?=[\s>/])[^>]*>/i;
/** Tags whose place the skeleton decides: removed, then written once in the right order. */
const STRUCTURE_TAG = /<!doctype[^>]*>|<\/?(?:html|head|body)(?=[\s>/])[^>]*>/gi;
/** What may open a document before its content starts: these go to <head>. */
const HEAD_ITEM = /\s+|<!--[\s\S]*?-->|<(title|style|script|template|noscript)(?=[\s>/])[^>]*>[\s\S]*?<\/\1\s*>|<(?:meta|link|base)(?=[\s>/])[^>]*>/iy;

export function parseDocument(html: string): Document {
  return parseHTML(withSkeleton(html)).document;
}

/** The page with <html>, <head> and <body> in place; pages that have them are returned as they are. */
export function withSkeleton(html: string): string {
  if (HTML_TAG.test(html) && BODY_TAG.test(html)) return html;
  const htmlAttributes = attributesOf(HTML_TAG.exec(html)?.[0]);
  const bodyAttributes = attributesOf(BODY_TAG.exec(html)?.[0]);
  const content = html.replace(STRUCTURE_TAG, '');
  let headEnd = 0;
  HEAD_ITEM.lastIndex = 0;
  while (HEAD_ITEM.exec(content)) headEnd = HEAD_ITEM.lastIndex;
  return `<!doctype html><html${htmlAttributes}><head>${content.slice(0, headEnd)}</head><body${bodyAttributes}>${content.slice(headEnd)}</body></html>`;
}

/** The attributes part of an opening tag (" lang=en"), or ''. */
function attributesOf(tag: string | undefined): string {
  return tag ? tag.replace(/^<\w+/, '').replace(/\/?>$/, '') : '';
}
