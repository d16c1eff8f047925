// Whether a statically fetched page must be rendered in a browser to be read: only when its text is
// thin AND it looks like an application shell (scripts plus an empty mount point, or a <noscript>
// asking for JavaScript). A short page that is simply short is read as it is.
import { parseDocument } from './parse-document.ts';
import type { ReadPage } from './read-page-types.ts';
import { visibleText } from './visible-text.ts';
import { countWords } from './word-count.ts';

export interface RenderDecision {
  render: boolean;
  reason: string;
}

/** Below this many words of main text a page may be a shell. */
const THIN_WORDS = 50;
/** A mount point holding at most this many words ("Loading…") counts as empty. */
const EMPTY_MOUNT_WORDS = 3;
/** Inline script beyond this many characters is an application, not a snippet. */
const LARGE_INLINE_SCRIPT = 2000;

/** Where single-page-app frameworks attach: React/CRA/Vite, Vue, Next.js, Nuxt, Gatsby, Svelte, Angular, Ember. */
const MOUNT_POINTS = '#root, #app, #__next, #__nuxt, #___gatsby, #svelte, #react-root, #app-root, #main-app, #application, [data-reactroot], [ng-version], app-root, ember-app';
const TRACKERS = /googletagmanager|google-analytics|gtag\/js|analytics|plausible|segment\.(?:com|io)|hotjar|connect\.facebook|clarity\.ms|cookie|consent/i;
const BUNDLE_PATH = /\/_next\/|\/_nuxt\/|\/static\/js\/|\/assets\/[^?#]*\.m?js|(?:^|[/.-])(?:bundle|chunk|main|app|index|runtime|vendor|polyfills)[.-][\w.-]*\.m?js/i;
const NOSCRIPT_ASKS_FOR_JS = /(?:enable|turn on|activate|requires?|needs?|must|without)\b[^.]{0,60}\bjava\s?script|\bjava\s?script\b[^.]{0,60}\b(?:required|needed|disabled|enabled|turned off|must)/i;

export function needsRendering(html: string, read: ReadPage): RenderDecision {
  if (read.wordCount >= THIN_WORDS) return { render: false, reason: `the page has ${read.wordCount} words of text without rendering` };
  const document = parseDocument(html);
  const scripts = scriptSignals(document);
  if (!scripts.any) return { render: false, reason: `the page is short (${read.wordCount} words) and has no scripts that could add content` };

  const mount = emptyMountPoint(document);
  const noscript = Array.from(document.querySelectorAll('noscript')).some((element) => NOSCRIPT_ASKS_FOR_JS.test(element.textContent ?? ''));
  const scriptText = `${scripts.description} and ${read.wordCount} words of text`;
  if (mount) return { render: true, reason: `the page is an application shell: ${scriptText}, with an empty mount point ${mount}` };
  if (noscript) return { render: true, reason: `the page says it needs JavaScript: ${scriptText}` };
  if (scripts.bundle && bodyWords(document) < EMPTY_MOUNT_WORDS * 3) return { render: true, reason: `the page is almost empty without its scripts: ${scriptText}` };
  return { render: false, reason: `the page is short (${read.wordCount} words) but does not look like an application shell` };
}

interface ScriptSignals {
  /** Scripts that could build the page: not trackers, not JSON data blocks. */
  any: boolean;
  /** Module scripts or bundler output. */
  bundle: boolean;
  description: string;
}

function scriptSignals(document: Document): ScriptSignals {
  let external = 0;
  let modules = 0;
  let bundles = 0;
  let inlineLength = 0;
  for (const script of Array.from(document.querySelectorAll('script'))) {
    const type = script.getAttribute('type')?.trim().toLowerCase() ?? '';
    if (type && type !== 'module' && !type.includes('javascript') && !type.includes('ecmascript')) continue; // JSON, templates
    const src = script.getAttribute('src')?.trim() ?? '';
    if (src && TRACKERS.test(src)) continue;
    if (src) external += 1;
    else inlineLength += (script.textContent ?? '').length;
    if (type === 'module') modules += 1;
    else if (src && BUNDLE_PATH.test(src)) bundles += 1;
  }
  const modulePreloads = document.querySelectorAll('link[rel="modulepreload"]').length;
  const parts = [
    external ? `${external} external script${external === 1 ? '' : 's'}` : '',
    modules ? `${modules} module script${modules === 1 ? '' : 's'}` : '',
    bundles ? `${bundles} bundle${bundles === 1 ? '' : 's'}` : '',
    inlineLength >= LARGE_INLINE_SCRIPT ? `${inlineLength} characters of inline script` : '',
  ].filter(Boolean);
  return {
    any: external > 0 || modules > 0 || inlineLength >= LARGE_INLINE_SCRIPT,
    bundle: modules > 0 || bundles > 0 || modulePreloads > 0 || inlineLength >= LARGE_INLINE_SCRIPT,
    description: parts.join(', ') || 'scripts',
  };
}

/** The selector of a mount point with (next to) no text, or null. */
function emptyMountPoint(document: Document): string | null {
  for (const element of Array.from(document.querySelectorAll(MOUNT_POINTS))) {
    if (countWords(visibleText(element)) > EMPTY_MOUNT_WORDS) continue;
    const id = element.getAttribute('id');
    return id ? `#${id}` : `<${element.localName}>`;
  }
  return null;
}

/** Words in the body outside scripts, styles and <noscript>. */
function bodyWords(document: Document): number {
  const body = document.body.cloneNode(true) as HTMLElement;
  for (const element of Array.from(body.querySelectorAll('script, style, noscript, template'))) element.remove();
  return countWords(visibleText(body));
}
