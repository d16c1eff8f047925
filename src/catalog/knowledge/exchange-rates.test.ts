import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RawRequest, RawResponse } from '../../upstream/http/http-types.ts';
import { frankfurter } from '../../upstream/providers/frankfurter.ts';
import { fixtureBytes } from '../../upstream/providers/recording-caller.ts';
import { Upstream } from '../../upstream/upstream.ts';
import type { ToolContext } from '../tool.ts';
import { ToolError } from '../tool.ts';
import { validateInput } from '../validate-input.ts';
import { exchangeRatesTool } from './exchange-rates.ts';

type Reply = (request: RawRequest) => { status?: number; body: Buffer | string };

const fixture = (file: string) => fixtureBytes('frankfurter', file);

/** The real upstream layer, answering from `reply`, on a clock the test moves. */
function gateway(reply: Reply, clock: { now: number }) {
  const requests: RawRequest[] = [];
  const upstream = new Upstream(
    [frankfurter],
    { userAgent: 'toolgate-test', baseUrls: {}, apiKeys: {} },
    async (request): Promise<RawResponse> => {
      requests.push(request);
      const { status = 200, body } = reply(request);
      return { url: request.url, status, headers: { 'content-type': 'application/json' }, body: Buffer.from(body), truncated: false, remoteAddress: undefined };
    },
    () => clock.now,
  );
  const run = async (raw: Record<string, unknown>) => {
    const verdict = validateInput(exchangeRatesTool.input, raw);
    assert.ok(verdict.ok, JSON.stringify(verdict));
    const deadline = clock.now + 20_000;
    const ctx = { signal: new AbortController().signal, now: () => new Date(clock.now), caller: { ip: '127.0.0.1' }, deadline, upstream: upstream.forCall(deadline) } as unknown as ToolContext;
    return (await exchangeRatesTool.handler!(verdict.value, ctx)) as Record<string, unknown>;
  };
  return { run, requests };
}

async function refusal(promise: Promise<unknown>): Promise<ToolError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ToolError, String(error));
    return error;
  }
  assert.fail('expected a ToolError');
}

describe('get_exchange_rates input', () => {
  test('codes in any case, repeats dropped; the defaults are USD and six currencies', () => {
    const defaults = validateInput(exchangeRatesTool.input, {});
    assert.deepEqual(defaults.ok && defaults.value, { fromCurrency: 'USD', toCurrencies: ['EUR', 'GBP', 'JPY', 'CAD', 'AUD', 'CHF'] });
    const mixed = validateInput(exchangeRatesTool.input, { fromCurrency: ' gbp', toCurrencies: 'eur, usd ,EUR' });
    assert.deepEqual(mixed.ok && mixed.value, { fromCurrency: 'GBP', toCurrencies: ['EUR', 'USD'] });
  });

  test('a currency the ECB does not publish is refused by name with the supported list', () => {
    const verdict = validateInput(exchangeRatesTool.input, { fromCurrency: 'XYZ', toCurrencies: 'EUR,BGN,eu' });
    assert.equal(verdict.ok, false);
    const messages = verdict.ok ? [] : verdict.issues.map((issue) => issue.message);
    assert.match(messages[0]!, /^fromCurrency: XYZ is not a currency the ECB publishes reference rates for; supported: AUD, BRL, .*ZAR$/);
    assert.match(messages[1]!, /^toCurrencies: BGN is not a currency/);
    assert.match(messages[2]!, /^toCurrencies: "EU" is not a 3-letter ISO 4217 currency code/);
  });
});

describe('get_exchange_rates', () => {
  test('each rate exactly as published, with its date, the cross-rate note and the next publication', async () => {
    const clock = { now: Date.parse('2026-08-11T09:00:00Z') };
    const { run, requests } = gateway(() => ({ body: fixture('latest-usd-eur-gbp.json') }), clock);
    const answer = await run({ fromCurrency: 'USD', toCurrencies: 'EUR,GBP' });
    assert.equal(requests[0]!.url.href, 'https://api.frankfurter.dev/v1/latest?base=USD&symbols=EUR%2CGBP');
    assert.equal(answer.base, 'USD');
    assert.equal(answer.date, '2026-08-10');
    assert.deepEqual(answer.rates, { EUR: '0.86543', GBP: '0.7405' });
    assert.match(String(answer.derivation), /^derived from ECB EUR reference rates/);
    // 2026-08-10 is a Monday; the next rates are due Tuesday 16:00 CEST.
    assert.equal(answer.nextPublicationDue, '2026-08-11T14:00:00.000Z');
    assert.equal(answer.stale, false);
    assert.equal((answer.source as { provider: string }).provider, 'frankfurter');
  });

  test('the base among the quotes is 1 and is not asked of Frankfurter', async () => {
    const clock = { now: Date.parse('2026-08-11T09:00:00Z') };
    const { run, requests } = gateway(() => ({ body: fixture('latest-usd-eur-gbp.json') }), clock);
    const answer = await run({ fromCurrency: 'USD', toCurrencies: 'EUR,USD,GBP' });
    assert.equal(requests[0]!.url.searchParams.get('symbols'), 'EUR,GBP');
    assert.deepEqual(answer.rates, { EUR: '0.86543', USD: '1', GBP: '0.7405' });
  });

  test('EUR as base: the ECB rates as published', async () => {
    const clock = { now: Date.parse('2022-06-29T17:00:00Z') };
    const { run } = gateway(() => ({ body: fixture('latest-eur-all-2022.json') }), clock);
    const answer = await run({ fromCurrency: 'EUR', toCurrencies: 'USD,JPY,IDR' });
    assert.deepEqual(answer.rates, { USD: '1.0517', JPY: '143.53', IDR: '15613' });
    assert.equal(answer.derivation, 'ECB EUR reference rates as published');
  });

  test('cached until the next publication, then the last good rates are served stale when Frankfurter fails', async () => {
    const clock = { now: Date.parse('2026-08-11T09:00:00Z') };
    let failing = false;
    const { run, requests } = gateway(() => (failing ? { status: 500, body: 'oops' } : { body: fixture('latest-usd-eur-gbp.json') }), clock);
    await run({ toCurrencies: 'EUR,GBP' });
    clock.now = Date.parse('2026-08-11T13:59:00Z');
    await run({ toCurrencies: 'EUR,GBP' });
    assert.equal(requests.length, 1, 'served from the cache before 16:00 CEST');
    failing = true;
    clock.now = Date.parse('2026-08-11T14:30:00Z');
    const stale = await run({ toCurrencies: 'EUR,GBP' });
    assert.ok(requests.length > 1, 'asked again once the next publication was due');
    assert.equal(stale.stale, true);
    assert.equal(stale.date, '2026-08-10');
    assert.match(String(stale.staleNote), /dated 2026-08-10/);
  });

  test('without a cached answer a failure is an error naming Frankfurter', async () => {
    const clock = { now: Date.parse('2026-08-11T09:00:00Z') };
    const { run } = gateway(() => ({ status: 503, body: 'down' }), clock);
    const error = await refusal(run({ toCurrencies: 'EUR' }));
    assert.equal(error.status, 503);
    assert.match(error.message, /^Frankfurter:/);
  });

  test('an answer lacking an asked currency is a bad answer, not a partial one', async () => {
    const clock = { now: Date.parse('2026-08-11T09:00:00Z') };
    const { run } = gateway(() => ({ body: fixture('latest-usd-eur-gbp.json') }), clock);
    const error = await refusal(run({ toCurrencies: 'EUR,JPY' }));
    assert.equal(error.status, 502);
    assert.match(error.message, /published no rate for JPY/);
  });
});
