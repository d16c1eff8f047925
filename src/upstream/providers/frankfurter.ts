// Frankfurter's v1 API (https://frankfurter.dev/v1/, lineofflight/frankfurter lib/versions/v1.rb):
// `GET /v1/latest?base=USD&symbols=EUR,GBP` answers
// `{"amount":1.0,"base":"USD","date":"2026-08-10","rates":{"EUR":0.86543,"GBP":0.7405}}` with the
// European Central Bank's latest euro reference rates; for a base other than EUR Frankfurter
// divides the EUR rates by the base's and rounds the quotient. A refusal is
// `{"message":"not found"}` (404, e.g. an unknown currency) or `{"message":...}` (422, e.g.
// "bad currency pair" when the only symbol is the base).
import type { RawResponse } from '../http/http-types.ts';
import type { ProviderAnswer, ProviderCaller } from '../provider-call.ts';
import { defineProvider } from '../provider.ts';
import { badAnswer } from '../upstream-errors.ts';
import { freshForRatesOf } from './ecb-publication.ts';
import { bodyText, isJsonObject, isSuccessStatus, jsonObjectOf, stringMember } from './response-body.ts';

export const frankfurter = defineProvider({
  id: 'frankfurter',
  name: 'Frankfurter',
  baseUrl: { env: 'TOOLGATE_FRANKFURTER_URL', default: 'https://api.frankfurter.dev' },
  timeoutMs: 6_000,
  maxBytes: 256 * 1024,
  // Frankfurter publishes no quota ("no usage caps"); it throttles abuse. Answers are cached until
  // the next publication, so a modest limit is plenty.
  rateLimit: { requests: 10, perMs: 1_000, concurrency: 4, maxQueueMs: 2_000 },
  // Each answer is kept until the ECB's next publication is due (freshFor below); this is the fallback.
  cacheTtlMs: 60 * 60_000,
  cacheReason:
    'ECB reference rates change once per TARGET working day (around 16:00 CET), so each answer is kept until the next publication is due and rechecked every 15 minutes once it is overdue; an hour when an answer carries no date.',
  // Long enough to bridge the Easter closure (Thursday to Tuesday) and an outage over it.
  staleForMs: 5 * 24 * 60 * 60_000,
  attribution: 'Euro foreign exchange reference rates of the European Central Bank, via Frankfurter (frankfurter.dev)',
  termsUrl: 'https://www.ecb.europa.eu/services/using-our-site/disclaimer/html/index.en.html',
  docsUrl: 'https://frankfurter.dev/v1/',
});

/** Statuses whose `{"message":...}` body says why Frankfurter refused. */
const REFUSAL_STATUSES = [404, 422] as const;
const CURRENCY = /^[A-Z]{3}$/;
const RATE_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A JSON number as it is written: the text the provider published. */
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

export interface LatestRates {
  base: string;
  /** The ECB publication day of these rates, YYYY-MM-DD. */
  date: string;
  /** Each rate as the decimal text Frankfurter wrote, in its order: { EUR: "0.86543" }. */
  rates: Readonly<Record<string, string>>;
}

/** The latest rates from `base` to each of `symbols` (all published currencies when empty). */
export async function fetchLatestRates(
  caller: ProviderCaller,
  base: string,
  symbols: readonly string[],
  signal: AbortSignal,
): Promise<ProviderAnswer<LatestRates>> {
  const request = {
    path: '/v1/latest',
    query: { base, symbols: symbols.length > 0 ? symbols.join(',') : undefined },
    acceptStatuses: REFUSAL_STATUSES,
    freshFor: (response: RawResponse, now: number) => {
      const date = dateOf(response);
      return date ? freshForRatesOf(date, now) : undefined;
    },
  };
  return caller.call(frankfurter, request, parseLatestRates, signal);
}

export function parseLatestRates(response: RawResponse): LatestRates {
  const body = jsonObjectOf(response, frankfurter.name);
  if (!isSuccessStatus(response.status)) {
    const message = stringMember(body, 'message') ?? 'no message';
    throw badAnswer(frankfurter.name, `it refused the request (HTTP ${response.status}: ${message})`, response.status);
  }
  const base = stringMember(body, 'base');
  const date = stringMember(body, 'date');
  const rates = body.rates;
  if (!isJsonObject(rates) || base === undefined || date === undefined) {
    throw badAnswer(frankfurter.name, 'its answer is not the latest-rates object (no base, date and rates)');
  }
  if (!CURRENCY.test(base) || !RATE_DATE.test(date)) throw badAnswer(frankfurter.name, `its answer has an unreadable base or date (${base}, ${date})`);
  const published = publishedRateTexts(bodyText(response));
  const texts: Record<string, string> = {};
  for (const [code, value] of Object.entries(rates)) {
    const text = published.get(code);
    if (!CURRENCY.test(code) || typeof value !== 'number' || !(value > 0) || text === undefined || Number(text) !== value) {
      throw badAnswer(frankfurter.name, `its rate for ${code} is not a positive number`);
    }
    texts[code] = text;
  }
  return { base, date, rates: texts };
}

/**
 * The rates as written in the body: JSON.parse would hand back binary floats, and "exactly as
 * published" means the decimal text. The rates object is flat (code: number), so its members are
 * read from the text and checked against the parsed values by the caller.
 */
function publishedRateTexts(text: string): Map<string, string> {
  const texts = new Map<string, string>();
  const ratesObject = /"rates"\s*:\s*\{([^{}]*)\}/.exec(text)?.[1] ?? '';
  for (const member of ratesObject.split(',')) {
    const match = /^\s*"([^"\\]*)"\s*:\s*(\S+)\s*$/.exec(member);
    if (match && JSON_NUMBER.test(match[2]!)) texts.set(match[1]!, match[2]!);
  }
  return texts;
}

/** The rate date of an answer, for its cache lifetime (undefined when the answer is not readable). */
function dateOf(response: RawResponse): string | undefined {
  try {
    const body: unknown = JSON.parse(bodyText(response));
    const date = isJsonObject(body) ? stringMember(body, 'date') : undefined;
    return date && RATE_DATE.test(date) ? date : undefined;
  } catch {
    return undefined;
  }
}
