import { z } from 'zod';
import type { SourceNote } from '../../upstream/provider.ts';
import { articleUrl, fetchPageLinks, fetchPageSummary, searchEdition, type PageSummary } from '../../upstream/providers/wikipedia-summary.ts';
import { defineTool, ToolError, type ToolContext } from '../tool.ts';
import { isWikipediaLanguage } from './wiki/language-editions.ts';
import { attributionOf, pageFieldsOf, type WikiCandidate } from './wiki/wiki-answer.ts';

/** Characters MediaWiki never allows in a title: such a query can only be searched for. */
const NOT_IN_TITLES = /[#<>[\]|{}\u0000-\u001f]/;
const SEARCH_LIMIT = 6;

export const wikiTool = defineTool({
  name: 'lookup_wiki_fact',
  title: 'Encyclopedia lookup',
  description:
    'Looks a subject up in a Wikipedia language edition: an exact title gives its page summary, otherwise the best search match is summarised and the other matches are listed as candidates. ' +
    'Returns the title, short description, extract, canonical URL, a permanent link to the revision read, thumbnail, last modified time, Wikidata id and the CC BY-SA 4.0 attribution. ' +
    'A disambiguation page returns its options instead of a summary. Nothing found is a free 404.',
  price: '0.002',
  http: [{ method: 'GET', path: '/api/info/wiki' }],
  input: z.object({
    query: z.string().trim().min(1, { message: 'expected a subject to look up' }).max(300).describe('The subject to look up: an article title or search words.'),
    lang: z
      .string()
      .trim()
      .toLowerCase()
      .superRefine((code, ctx) => {
        if (!isWikipediaLanguage(code)) ctx.addIssue({ code: 'custom', message: `${code} is not a Wikipedia language edition (expected a code such as "en", "de", "simple" or "zh-yue")` });
      })
      .default('en')
      .describe('Wikipedia language edition, as in its host name: "en" for en.wikipedia.org.'),
  }),
  example: { query: 'Tokyo', lang: 'en' },
  annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  timeoutMs: 20_000,
  async handler(input, ctx) {
    const { query, lang } = input;
    const sources: SourceNote[] = [];
    let matchedBy: 'title' | 'search' = 'title';
    let candidates: WikiCandidate[] | undefined;
    let summary: PageSummary | null = null;

    if (!NOT_IN_TITLES.test(query)) {
      const exact = await fetchPageSummary(ctx.upstream, lang, query, ctx.signal);
      sources.push(exact.source);
      summary = exact.value;
    }
    if (!summary) {
      matchedBy = 'search';
      const search = await searchEdition(ctx.upstream, query, lang, SEARCH_LIMIT, ctx.signal);
      sources.push(search.source);
      const [best, ...others] = search.value;
      if (!best) throw notFound(query, lang);
      candidates = others.map((hit) => ({ title: hit.title, description: typeof hit.extra?.description === 'string' ? hit.extra.description : null, url: hit.url }));
      const found = await fetchPageSummary(ctx.upstream, lang, best.title, ctx.signal);
      sources.push(found.source);
      summary = found.value;
      if (!summary) throw notFound(query, lang);
    }

    const answer = {
      query,
      lang,
      matchedBy,
      type: summary.type,
      ...pageFieldsOf(summary, lang),
      ...(summary.type === 'disambiguation' ? await disambiguationOf(summary, lang, ctx, sources) : {}),
      ...(candidates ? { candidates } : {}),
      attribution: attributionOf(summary, lang),
      sources,
    };
    return answer;
  },
});

/** A disambiguation page is answered with its options, not with its one-line "may refer to:" extract. */
async function disambiguationOf(summary: PageSummary, lang: string, ctx: ToolContext, sources: SourceNote[]) {
  const links = await fetchPageLinks(ctx.upstream, lang, summary.canonicalTitle, ctx.signal);
  sources.push(links.source);
  return {
    disambiguation: true,
    note: `"${summary.title}" is a disambiguation page: pick one of its options and look it up by title.`,
    options: links.value.map((title) => ({ title, url: articleUrl(lang, title) })),
  };
}

function notFound(query: string, lang: string): ToolError {
  return new ToolError(404, 'not_found', `No article in the ${lang} Wikipedia matches "${query}". You were not charged.`, { lang });
}
