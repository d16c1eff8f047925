// The HTML standard's named <meta> tags (description, author, keywords, theme-color,
// application-name, generator), robots, and the content-language pragma.
import { firstValue, type MetaEntry } from './meta-entries.ts';
import type { StandardMeta } from './metadata-types.ts';

export function readStandardMeta(entries: readonly MetaEntry[]): StandardMeta {
  const keywords = firstValue(entries, 'keywords') ?? '';
  return {
    description: firstValue(entries, 'description'),
    author: firstValue(entries, 'author'),
    keywords: [...new Set(keywords.split(',').map((keyword) => keyword.trim()).filter(Boolean))],
    themeColor: firstValue(entries, 'theme-color'),
    robots: firstValue(entries, 'robots'),
    generator: firstValue(entries, 'generator'),
    applicationName: firstValue(entries, 'application-name'),
    contentLanguage: firstValue(entries, 'http-equiv:content-language'),
  };
}
