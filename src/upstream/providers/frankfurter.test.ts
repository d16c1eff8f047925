import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fetchLatestRates, frankfurter, parseLatestRates } from './frankfurter.ts';
import { failureOf, fixtureResponse, rawResponse, RecordingCaller } from './recording-caller.ts';

const signal = new AbortController().signal;
const json = { contentType: 'application/json; charset=utf-8' };

describe('parseLatestRates', () => {
  test('reads a captured USD answer: base, date and each rate as written', () => {
    assert.deepEqual(parseLatestRates(fixtureResponse('frankfurter', 'latest-usd-eur-gbp.json', json)), {
      base: 'USD',
      date: '2026-08-10',
      rates: { EUR: '0.86543', GBP: '0.7405' },
    });
  });

  test('keeps every published rate of a full EUR answer, integers and five-decimal rates alike', () => {
    const latest = parseLatestRates(fixtureResponse('frankfurter', 'latest-eur-all-2022.json', json));
    assert.equal(latest.base, 'EUR');
    assert.equal(latest.date, '2022-06-29');
    assert.equal(Object.keys(latest.rates).length, 31);
    assert.equal(latest.rates.IDR, '15613');
    assert.equal(latest.rates.GBP, '0.86461');
    assert.equal(latest.rates.USD, '1.0517');
    assert.equal(latest.rates.KRW, '1364.02');
  });

  test('reads a captured single-rate answer above 1000 as written', () => {
    assert.deepEqual(parseLatestRates(fixtureResponse('frankfurter', 'latest-usd-krw.json', json)).rates, { KRW: '1416.48' });
  });

  test("a refusal names Frankfurter's message", () => {
    const notFound = failureOf(() => parseLatestRates(fixtureResponse('frankfurter', 'not-found-404.json', { status: 404, ...json })));
    assert.match(notFound.message, /^Frankfurter: it refused the request \(HTTP 404: not found\)/);
    assert.equal(notFound.details?.upstreamStatus, 404);
    const badPair = failureOf(() => parseLatestRates(fixtureResponse('frankfurter', 'bad-currency-pair-422.json', { status: 422, ...json })));
    assert.match(badPair.message, /HTTP 422: bad currency pair/);
  });

  test('a 200 that is not the rates object (the v1 root document) is a bad answer', () => {
    const failure = failureOf(() => parseLatestRates(fixtureResponse('frankfurter', 'v1-root-200.json', json)));
    assert.equal(failure.failure, 'bad_answer');
    assert.match(failure.message, /not the latest-rates object/);
  });

  // Not provider captures: bodies that break the documented object.
  test('a rate that is not a positive number is a bad answer', () => {
    for (const body of ['{"base":"USD","date":"2026-08-10","rates":{"EUR":"0.86"}}', '{"base":"USD","date":"2026-08-10","rates":{"EUR":0}}']) {
      assert.match(failureOf(() => parseLatestRates(rawResponse(body, json))).message, /rate for EUR is not a positive number/);
    }
    assert.match(failureOf(() => parseLatestRates(rawResponse('<html>busy</html>', { contentType: 'text/html' }))).message, /not JSON/);
  });
});

describe('fetchLatestRates', () => {
  test('asks /v1/latest for the base and the symbols, accepting the JSON refusals', async () => {
    const caller = new RecordingCaller(fixtureResponse('frankfurter', 'latest-usd-eur-gbp.json', json));
    const answer = await fetchLatestRates(caller, 'USD', ['EUR', 'GBP'], signal);
    const { provider, request } = caller.only();
    assert.equal(provider, frankfurter);
    assert.equal(request.path, '/v1/latest');
    assert.deepEqual(request.query, { base: 'USD', symbols: 'EUR,GBP' });
    assert.deepEqual(request.acceptStatuses, [404, 422]);
    assert.equal(answer.value.rates.EUR, '0.86543');
    assert.match(answer.source.attribution, /European Central Bank/);
  });

  test('no symbols asks for every published currency', async () => {
    const caller = new RecordingCaller(fixtureResponse('frankfurter', 'latest-eur-all-2022.json', json));
    await fetchLatestRates(caller, 'EUR', [], signal);
    assert.deepEqual(caller.only().request.query, { base: 'EUR', symbols: undefined });
  });

  test('an answer stays fresh until the next ECB publication after its date', async () => {
    const caller = new RecordingCaller(fixtureResponse('frankfurter', 'latest-usd-eur-gbp.json', json));
    await fetchLatestRates(caller, 'USD', ['EUR', 'GBP'], signal);
    const freshFor = caller.only().request.freshFor!;
    // 2026-08-10 is a Monday: the next rates are due Tuesday 16:00 CEST (14:00 UTC).
    const now = Date.parse('2026-08-10T15:00:00Z');
    assert.equal(freshFor(fixtureResponse('frankfurter', 'latest-usd-eur-gbp.json', json), now), 23 * 60 * 60_000);
    assert.equal(freshFor(fixtureResponse('frankfurter', 'not-found-404.json', json), now), undefined);
  });

  test('has Frankfurter as its default base and a stale window of several days', () => {
    assert.equal(frankfurter.baseUrl.env, 'TOOLGATE_FRANKFURTER_URL');
    assert.equal(frankfurter.baseUrl.default, 'https://api.frankfurter.dev');
    assert.ok(frankfurter.staleForMs >= 4 * 24 * 60 * 60_000);
  });
});
