// The answer of lookup_wiki_fact built from a page summary: links to the article and to the
// revision read, and the attribution CC BY-SA requires (title, link, authors via the history, licence).
import { articleUrl, permanentUrl, type PageSummary } from '../../../upstream/providers/wikipedia-summary.ts';

export const LICENSE = { name: 'CC BY-SA 4.0', url: 'https://creativecommons.org/licenses/by-sa/4.0/' } as const;

export interface WikiCandidate {
  title: string;
  description: string | null;
  url: string;
}

export function attributionOf(summary: PageSummary, lang: string) {
  const url = articleUrl(lang, summary.canonicalTitle);
  return {
    text: `Text from the Wikipedia article "${summary.title}" (${url}), by its contributors (${url}?action=history), licensed under ${LICENSE.name} (${LICENSE.url}).`,
    license: LICENSE.name,
    licenseUrl: LICENSE.url,
    historyUrl: `${url}?action=history`,
  };
}

export function pageFieldsOf(summary: PageSummary, lang: string) {
  return {
    title: summary.title,
    description: summary.description,
    extract: summary.extract,
    url: articleUrl(lang, summary.canonicalTitle),
    permanentUrl: summary.revision ? permanentUrl(lang, summary.canonicalTitle, summary.revision) : null,
    revision: summary.revision,
    lastModified: summary.lastModified,
    thumbnail: summary.thumbnail,
    wikidataId: summary.wikidataId,
    pageLanguage: summary.lang,
  };
}
