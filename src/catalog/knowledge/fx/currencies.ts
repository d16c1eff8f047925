// The currencies Frankfurter's v1 API quotes: the euro and the 29 currencies the ECB publishes
// reference rates for. Source: the `base` enumeration of lineofflight/frankfurter
// lib/public/v1/openapi.json (commit 60541ad190b6e192d2969038b2b299fb4800a8a2) without BGN, which
// the ECB stopped publishing when Bulgaria adopted the euro on 2026-01-01 (db/seeds/defunct_currencies.json
// there; its captured ECB feed of 2026-02-17..03-18, spec/vcr_cassettes/ecb_recent.yml, lists these 29).
// v1 /currencies answers exactly the currencies with ECB rates in the last 14 days, plus EUR.

export const SUPPORTED_CURRENCIES = [
  'AUD', 'BRL', 'CAD', 'CHF', 'CNY', 'CZK', 'DKK', 'EUR', 'GBP', 'HKD', 'HUF', 'IDR', 'ILS', 'INR', 'ISK',
  'JPY', 'KRW', 'MXN', 'MYR', 'NOK', 'NZD', 'PHP', 'PLN', 'RON', 'SEK', 'SGD', 'THB', 'TRY', 'USD', 'ZAR',
] as const;

const supported: ReadonlySet<string> = new Set(SUPPORTED_CURRENCIES);

export function isSupportedCurrency(code: string): boolean {
  return supported.has(code);
}

/** Why a code is refused, naming it and the supported list; undefined when it is supported. */
export function currencyProblem(code: string): string | undefined {
  if (!/^[A-Z]{3}$/.test(code)) return `"${code}" is not a 3-letter ISO 4217 currency code such as "USD"`;
  if (supported.has(code)) return undefined;
  return `${code} is not a currency the ECB publishes reference rates for; supported: ${SUPPORTED_CURRENCIES.join(', ')}`;
}

/** A comma-separated list as upper-case codes, in order, without repeats or empty items. */
export function currencyListOf(text: string): string[] {
  const codes = text.split(',').map((code) => code.trim().toUpperCase()).filter((code) => code.length > 0);
  return [...new Set(codes)];
}
