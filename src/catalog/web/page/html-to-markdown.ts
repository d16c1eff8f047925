// HTML content to Markdown: turndown with the GFM plugin (tables, strikethrough, task lists),
// ATX headings, fenced code blocks that keep their language, absolute link and image URLs.
import { gfm } from '@joplin/turndown-plugin-gfm';
import TurndownService from 'turndown';
import { cleanContent } from './clean-content.ts';
import { fencedCode } from './code-fence.ts';

const LANGUAGE_CLASS = /(?:^|\s)(?:language|lang)-([\w+#.-]+)/;

function createService(): TurndownService {
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*', hr: '---' });
  service.use(gfm);
  service.addRule('codeBlock', {
    filter: (node) => node.nodeName === 'PRE',
    replacement: (_content, node) => {
      const code = node.querySelector('code');
      const language = languageOf(code) ?? languageOf(node) ?? '';
      return `\n\n${fencedCode((node.textContent ?? '').replace(/\n+$/, ''), language)}\n\n`;
    },
  });
  return service;
}

const service = createService();

/** Markdown of an HTML fragment or page; relative URLs resolve against `baseUrl` (or the page's own <base href>). */
export function htmlToMarkdown(html: string, baseUrl: string): string {
  return markdownOfContent(cleanContent(html, baseUrl));
}

/** Markdown of content `cleanContent` prepared. */
export function markdownOfContent(content: HTMLElement): string {
  return tidy(service.turndown(content.innerHTML));
}

function languageOf(element: Element | null): string | null {
  return LANGUAGE_CLASS.exec(element?.getAttribute('class') ?? '')?.[1]?.toLowerCase() ?? null;
}

/** One blank line at most between blocks (code blocks untouched), no trailing spaces except hard breaks. */
function tidy(markdown: string): string {
  // The GFM plugin wraps tables it keeps as HTML (tables holding lists or code) in a div of its editor.
  const unwrapped = markdown.replace(/<div class="joplin-table-wrapper">(<table[\s\S]*?<\/table>)<\/div>/g, '$1');
  const lines: string[] = [];
  let fence: string | null = null;
  for (const line of unwrapped.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && marker) fence = marker;
    else if (fence !== null && marker && marker.startsWith(fence) && line.trim() === marker) fence = null;
    else if (fence === null) {
      if (line.trim() === '') {
        if (lines.length > 0 && lines.at(-1) !== '') lines.push('');
      } else {
        lines.push(line.endsWith('  ') ? line.replace(/\s+$/, '  ') : line.replace(/\s+$/, ''));
      }
      continue;
    }
    lines.push(line);
  }
  return lines.join('\n').trim();
}
