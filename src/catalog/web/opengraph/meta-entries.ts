// The <meta> tags of a page as key/value pairs in document order. Open Graph says property=,
// X cards and standard tags say name=; parsers accept either for both, and so does this.

export interface MetaEntry {
  /** Lower-case property or name ("og:image", "twitter:card", "description"); "http-equiv:<value>" for pragmas. */
  key: string;
  /** Whitespace collapsed and trimmed; never empty. */
  content: string;
}

export function metaEntries(document: Document): MetaEntry[] {
  const entries: MetaEntry[] = [];
  for (const meta of Array.from(document.querySelectorAll('meta'))) {
    // Early X cards markup wrote value= instead of content=.
    const content = (meta.getAttribute('content') ?? meta.getAttribute('value') ?? '').replace(/\s+/g, ' ').trim();
    if (!content) continue;
    const keys = new Set<string>();
    for (const attribute of ['property', 'name']) {
      const key = meta.getAttribute(attribute)?.trim().toLowerCase();
      if (key) keys.add(key);
    }
    const pragma = meta.getAttribute('http-equiv')?.trim().toLowerCase();
    if (pragma) keys.add(`http-equiv:${pragma}`);
    for (const key of keys) entries.push({ key, content });
  }
  return entries;
}

/** The first value under any of the keys, in the order the keys are given. */
export function firstValue(entries: readonly MetaEntry[], ...keys: string[]): string | null {
  for (const key of keys) {
    const found = entries.find((entry) => entry.key === key);
    if (found) return found.content;
  }
  return null;
}

/** Every value under the key, in document order, without repeats. */
export function allValues(entries: readonly MetaEntry[], key: string): string[] {
  return [...new Set(entries.filter((entry) => entry.key === key).map((entry) => entry.content))];
}

/** A positive whole number of pixels, or null. */
export function pixels(value: string | null | undefined): number | null {
  const parsed = Number.parseInt(value ?? '', 10);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : null;
}
