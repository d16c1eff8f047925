import { z } from 'zod';
import { fetchLatestRates } from '../../upstream/providers/frankfurter.ts';
import { badAnswer } from '../../upstream/upstream-errors.ts';
import { defineTool } from '../tool.ts';
import { nextPublicationAfter } from '../../upstream/providers/ecb-publication.ts';
import { currencyListOf, currencyProblem } from './fx/currencies.ts';

const MAX_QUOTES = 30;
const DEFAULT_QUOTES = 'EUR,GBP,JPY,CAD,AUD,CHF';

export const exchangeRatesTool = defineTool({
  name: 'get_exchange_rates',
  title: 'Fiat exchange rates',
  description:
    'Returns the European Central Bank\'s latest euro foreign exchange reference rates from one currency to several others (30 currencies), each rate exactly as published (a decimal string), with the rates\' date, when the next rates are due, and the source. ' +
    'For a base other than EUR the rates are cross rates Frankfurter derives from the ECB\'s EUR rates. A currency equal to the base is 1. When the provider fails, the last good rates are served marked stale with their date.',
  price: '0.002',
  http: [{ method: 'GET', path: '/api/finance/fx', rename: { fromCurrency: 'from', toCurrencies: 'to' } }],
  input: z.object({
    fromCurrency: z
      .string()
      .trim()
      .toUpperCase()
      .superRefine((code, ctx) => {
        const problem = currencyProblem(code);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .default('USD')
      .describe('ISO 4217 code of the base currency.'),
    toCurrencies: z
      .string()
      .default(DEFAULT_QUOTES)
      .transform(currencyListOf)
      .superRefine((codes, ctx) => {
        if (codes.length === 0) ctx.addIssue({ code: 'custom', message: 'expected comma-separated 3-letter ISO 4217 codes such as "EUR,GBP"' });
        if (codes.length > MAX_QUOTES) ctx.addIssue({ code: 'custom', message: `at most ${MAX_QUOTES} currencies` });
        for (const code of codes) {
          const problem = currencyProblem(code);
          if (problem) ctx.addIssue({ code: 'custom', message: problem });
        }
      })
      .describe('Comma-separated ISO 4217 codes of the quote currencies (default EUR,GBP,JPY,CAD,AUD,CHF).'),
  }),
  example: { fromCurrency: 'USD', toCurrencies: 'EUR,GBP' },
  annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  async handler(input, ctx) {
    const base = input.fromCurrency;
    const quotes = input.toCurrencies;
    // Frankfurter refuses a base as its only symbol; its rate is 1 by definition.
    const asked = quotes.filter((code) => code !== base);
    const answer = await fetchLatestRates(ctx.upstream, base, asked, ctx.signal);
    const latest = answer.value;
    if (latest.base !== base) throw badAnswer(answer.source.name, `it answered for base ${latest.base} instead of ${base}`);
    const missing = asked.filter((code) => latest.rates[code] === undefined);
    if (missing.length > 0) throw badAnswer(answer.source.name, `it published no rate for ${missing.join(', ')}`);
    const rates = Object.fromEntries(quotes.map((code) => [code, code === base ? '1' : latest.rates[code]!]));
    const nextDue = nextPublicationAfter(latest.date);
    return {
      base,
      date: latest.date,
      rates,
      publisher: 'European Central Bank euro foreign exchange reference rates (published around 16:00 CET on TARGET working days)',
      derivation:
        base === 'EUR'
          ? 'ECB EUR reference rates as published'
          : `derived from ECB EUR reference rates: Frankfurter divides each EUR rate by the EUR rate of ${base} and rounds the result`,
      nextPublicationDue: nextDue === undefined ? null : new Date(nextDue).toISOString(),
      stale: answer.source.stale === true,
      ...(answer.source.stale ? { staleNote: `The provider failed; these are the last good rates, dated ${latest.date}.` } : {}),
      source: answer.source,
    };
  },
});
