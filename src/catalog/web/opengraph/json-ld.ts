// schema.org JSON-LD blocks (<script type="application/ld+json">), read defensively: a block that
// is not JSON is counted and skipped, arrays and @graph are flattened, and only plain fields are
// taken from each item (never merged into other objects).
import { absoluteHttpUrl } from '../page/page-urls.ts';
import type { JsonLdItem } from './metadata-types.ts';

/** Enough for any real page; a page with more is not describing itself. */
const MAX_ITEMS = 50;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export function readJsonLd(document: Document, base: string): { items: JsonLdItem[]; invalidBlocks: number } {
  const items: JsonLdItem[] = [];
  let invalidBlocks = 0;
  for (const script of Array.from(document.querySelectorAll('script'))) {
    if (script.getAttribute('type')?.trim().toLowerCase() !== 'application/ld+json') continue;
    const parsed = parseBlock(script.textContent ?? '');
    if (parsed === undefined) {
      invalidBlocks += 1;
      continue;
    }
    for (const object of flatten(parsed)) {
      if (items.length >= MAX_ITEMS) break;
      items.push(summarize(object, base));
    }
  }
  return { items, invalidBlocks };
}

/** The block's JSON, or undefined; tolerates the HTML comment and CDATA wrappers some CMSs add. */
function parseBlock(text: string): Json | undefined {
  const unwrapped = text
    .trim()
    .replace(/^(?:<!--|\/\/\s*<!\[CDATA\[|\/\*\s*<!\[CDATA\[\s*\*\/)/, '')
    .replace(/(?:-->|\/\/\s*\]\]>|\/\*\s*\]\]>\s*\*\/)$/, '')
    .trim();
  if (!unwrapped) return undefined;
  try {
    return JSON.parse(unwrapped) as Json;
  } catch {
    return undefined;
  }
}

const isObject = (value: Json | undefined): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

function flatten(value: Json): JsonObject[] {
  if (Array.isArray(value)) return value.flatMap(flatten);
  if (!isObject(value)) return [];
  const graph = value['@graph'];
  if (Array.isArray(graph)) return graph.flatMap(flatten);
  return [value];
}

function summarize(item: JsonObject, base: string): JsonLdItem {
  return {
    types: strings(item['@type']),
    name: text(item['name']),
    headline: text(item['headline']),
    description: text(item['description']),
    datePublished: text(item['datePublished']),
    dateModified: text(item['dateModified']),
    authors: names(item['author']),
    publisher: names(item['publisher'])[0] ?? null,
    image: absoluteHttpUrl(imageUrl(item['image']), base),
    url: absoluteHttpUrl(text(item['url']), base),
  };
}

function text(value: Json | undefined): string | null {
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') return null;
  return value.replace(/\s+/g, ' ').trim() || null;
}

function strings(value: Json | undefined): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((entry) => text(entry ?? undefined)).filter((entry): entry is string => entry !== null);
}

/** Names of people or organizations given as strings, objects with a name, or arrays of either. */
function names(value: Json | undefined): string[] {
  const list = Array.isArray(value) ? value : [value];
  const found = list.map((entry) => (isObject(entry) ? text(entry['name']) : text(entry ?? undefined)));
  return [...new Set(found.filter((name): name is string => name !== null))];
}

/** An image given as a URL, an ImageObject (url or contentUrl), or an array of those: the first. */
function imageUrl(value: Json | undefined): string | null {
  if (Array.isArray(value)) return value.map((entry) => imageUrl(entry)).find((url) => url !== null) ?? null;
  if (isObject(value)) return text(value['url']) ?? text(value['contentUrl']);
  return text(value);
}
