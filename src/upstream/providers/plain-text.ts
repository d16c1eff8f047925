// Engines mark matched words with <b>/<strong> and escape entities in titles and snippets;
// callers get plain text.
import { parseHTML } from 'linkedom';

/** Runs of whitespace (including no-break spaces) become one space; ends trimmed. */
export function squashSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The text of an HTML fragment: tags dropped, entities decoded, whitespace squashed. */
export function plainTextOf(fragment: string): string {
  if (!/[<&]/.test(fragment)) return squashSpace(fragment);
  const { document } = parseHTML(`<!doctype html><html><body>${fragment}</body></html>`);
  return squashSpace(document.body?.textContent ?? '');
}
