// calculate_timezone_and_markets. Offsets, abbreviations and transition instants are checked
// against values worked out by hand from the published DST rules (US: 02:00 local on the second
// Sunday of March and the first Sunday of November; EU/UK: 01:00 UTC on the last Sundays of March
// and October; New South Wales: 03:00 AEDT on the first Sunday of April, 02:00 AEST on the first
// Sunday of October), not against what the code computes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { testContext } from '../../../test/support/tool-context.ts';
import type { ToolContext } from '../tool.ts';
import { ToolError } from '../tool.ts';
import type { TimezoneAnswer } from './timezone.ts';
import { timezoneTool } from './timezone.ts';
import { resolveZone } from './zone-names.ts';
import { instantAtWallClock } from './zoned-time.ts';
import { schemaIssues } from '../../../test/support/schema-issues.ts';

const contextAt = (utc: string): ToolContext => (testContext({ signal: new AbortController().signal, now: () => new Date(utc), caller: { ip: '127.0.0.1' } }));

async function ask(raw: unknown, utc: string): Promise<TimezoneAnswer> {
  assert.ok(timezoneTool.handler);
  return (await timezoneTool.handler(timezoneTool.input.parse(raw), contextAt(utc))) as TimezoneAnswer;
}

const { issuesOf } = schemaIssues(timezoneTool.input);

describe('calculate_timezone_and_markets: the zone', () => {
  test('defaults to UTC', async () => {
    const answer = await ask({}, '2026-07-01T12:34:56Z');
    assert.equal(answer.timezone, 'UTC');
    assert.equal(answer.localTime, '2026-07-01T12:34:56+00:00');
    assert.equal(answer.utcTime, '2026-07-01T12:34:56Z');
    assert.equal(answer.utcOffset, '+00:00');
    assert.equal(answer.abbreviation, 'UTC');
    assert.equal(answer.isDst, false);
    assert.equal(answer.nextTransition, null);
    assert.equal(answer.dayOfWeek, 'Wednesday');
  });

  test('Tokyo: +09:00 JST, no DST, no transition', async () => {
    const answer = await ask({ timezone: 'Asia/Tokyo' }, '2026-11-21T03:00:00Z');
    assert.deepEqual(
      [answer.localTime, answer.utcOffset, answer.utcOffsetMinutes, answer.abbreviation, answer.isDst, answer.nextTransition],
      ['2026-11-21T12:00:00+09:00', '+09:00', 540, 'JST', false, null],
    );
  });

  test('New York on the spring-forward night: EST one second before 07:00 UTC, EDT from it', async () => {
    const before = await ask({ timezone: 'America/New_York' }, '2026-03-08T06:59:59Z');
    assert.equal(before.localTime, '2026-03-08T01:59:59-05:00');
    assert.equal(before.abbreviation, 'EST');
    assert.equal(before.isDst, false);
    assert.deepEqual(before.nextTransition, {
      at: '2026-03-08T07:00:00Z', localTimeAfter: '2026-03-08T03:00:00-04:00',
      utcOffsetBefore: '-05:00', utcOffsetAfter: '-04:00', abbreviationAfter: 'EDT', isDstAfter: true,
    });
    const after = await ask({ timezone: 'America/New_York' }, '2026-03-08T07:00:00Z');
    assert.deepEqual([after.localTime, after.abbreviation, after.isDst], ['2026-03-08T03:00:00-04:00', 'EDT', true]);
    assert.equal(after.nextTransition?.at, '2026-11-01T06:00:00Z');
    assert.equal(after.nextTransition?.localTimeAfter, '2026-11-01T01:00:00-05:00');
  });

  test('New York\'s repeated hour on 1 November 2026: 01:30 EDT, then 01:30 EST', async () => {
    assert.equal((await ask({ timezone: 'America/New_York' }, '2026-11-01T05:30:00Z')).localTime, '2026-11-01T01:30:00-04:00');
    assert.equal((await ask({ timezone: 'America/New_York' }, '2026-11-01T06:30:00Z')).localTime, '2026-11-01T01:30:00-05:00');
    // A wall time that occurs twice maps to its first occurrence.
    assert.equal(instantAtWallClock('America/New_York', { year: 2026, month: 11, day: 1 }, 90), Date.parse('2026-11-01T05:30:00Z'));
  });

  test('London and Paris: GMT/BST and CET/CEST, changing at 01:00 UTC on the last Sundays', async () => {
    const winter = await ask({ timezone: 'Europe/London' }, '2026-03-29T00:59:59Z');
    assert.deepEqual([winter.utcOffset, winter.abbreviation, winter.isDst, winter.nextTransition?.at], ['+00:00', 'GMT', false, '2026-03-29T01:00:00Z']);
    const summer = await ask({ timezone: 'Europe/London' }, '2026-07-01T00:00:00Z');
    assert.deepEqual([summer.utcOffset, summer.abbreviation, summer.isDst, summer.nextTransition?.at], ['+01:00', 'BST', true, '2026-10-25T01:00:00Z']);
    const paris = await ask({ timezone: 'Europe/Paris' }, '2026-07-01T00:00:00Z');
    assert.deepEqual([paris.utcOffset, paris.abbreviation, paris.nextTransition?.abbreviationAfter, paris.nextTransition?.utcOffsetAfter], ['+02:00', 'CEST', 'CET', '+01:00']);
  });

  test('Sydney (southern hemisphere): daylight time in January, ending 4 April 16:00 UTC; starting again 3 October 16:00 UTC', async () => {
    const january = await ask({ timezone: 'Australia/Sydney' }, '2026-01-15T00:00:00Z');
    assert.deepEqual([january.utcOffset, january.abbreviation, january.isDst], ['+11:00', 'AEDT', true]);
    assert.deepEqual(january.nextTransition, {
      at: '2026-04-04T16:00:00Z', localTimeAfter: '2026-04-05T02:00:00+10:00',
      utcOffsetBefore: '+11:00', utcOffsetAfter: '+10:00', abbreviationAfter: 'AEST', isDstAfter: false,
    });
    const july = await ask({ timezone: 'Australia/Sydney' }, '2026-07-01T00:00:00Z');
    assert.deepEqual([july.isDst, july.nextTransition?.at, july.nextTransition?.isDstAfter], [false, '2026-10-03T16:00:00Z', true]);
  });

  test('offsets that are not whole hours: Kolkata +05:30 IST, Kathmandu +05:45', async () => {
    const kolkata = await ask({ timezone: 'Asia/Kolkata' }, '2026-01-01T00:00:00Z');
    assert.deepEqual([kolkata.localTime, kolkata.abbreviation], ['2026-01-01T05:30:00+05:30', 'IST']);
    assert.equal((await ask({ timezone: 'Asia/Kathmandu' }, '2026-01-01T00:00:00Z')).localTime, '2026-01-01T05:45:00+05:45');
  });

  test('New Year crosses in Tokyo nine hours before UTC', async () => {
    const answer = await ask({ timezone: 'Tokyo' }, '2026-12-31T15:00:00Z');
    assert.equal(answer.localTime, '2027-01-01T00:00:00+09:00');
    assert.equal(answer.dayOfWeek, 'Friday');
  });
});

describe('calculate_timezone_and_markets: names and cities', () => {
  const zoneOf = (query: string) => resolveZone(query)?.zone;

  test('IANA names in any case, aliases resolved to today\'s canonical names', () => {
    assert.equal(zoneOf('asia/tokyo'), 'Asia/Tokyo');
    assert.equal(zoneOf('US/Pacific'), 'America/Los_Angeles');
    assert.equal(zoneOf('Asia/Calcutta'), 'Asia/Kolkata');
    assert.equal(zoneOf('Europe/Kiev'), 'Europe/Kyiv');
    assert.equal(zoneOf('Japan'), 'Asia/Tokyo');
    assert.equal(zoneOf('Etc/GMT+5'), 'Etc/GMT+5');
    assert.equal(zoneOf('America/New York'), 'America/New_York');
  });

  test('cities: zone cities, the dataset\'s most populous namesake, "City, Country" and "City, State", accents and old names', () => {
    assert.equal(zoneOf('New York'), 'America/New_York');
    assert.equal(zoneOf('London'), 'Europe/London');
    assert.equal(zoneOf('London, Canada'), 'America/Toronto');
    assert.equal(zoneOf('Portland'), 'America/Los_Angeles');
    assert.equal(zoneOf('Portland, Maine'), 'America/New_York');
    assert.equal(zoneOf('Portland, ME'), 'America/New_York');
    assert.equal(zoneOf('Zurich'), 'Europe/Zurich');
    assert.equal(zoneOf('São Paulo'), 'America/Sao_Paulo');
    assert.equal(zoneOf('Mumbai'), 'Asia/Kolkata');
    assert.equal(zoneOf('Bombay'), 'Asia/Kolkata');
    assert.equal(zoneOf('Beijing'), 'Asia/Shanghai');
    assert.equal(zoneOf('Frankfurt'), 'Europe/Berlin');
    assert.equal(zoneOf('Washington, D.C.'), 'America/New_York');
    assert.equal(zoneOf('Saint Petersburg'), 'Europe/Moscow');
    assert.equal(zoneOf('Springfield, Illinois'), 'America/Chicago');
  });

  test('the answer says how the name was matched', async () => {
    const answer = await ask({ timezone: 'Portland, Maine' }, '2026-06-01T12:00:00Z');
    assert.equal(answer.input, 'Portland, Maine');
    assert.equal(answer.matchedBy, 'city');
    assert.deepEqual([answer.city?.name, answer.city?.country, answer.city?.region], ['Portland', 'United States of America', 'Maine']);
    assert.equal((await ask({ timezone: 'Europe/Paris' }, '2026-06-01T12:00:00Z')).matchedBy, 'iana_name');
  });
});

describe('calculate_timezone_and_markets: markets in the answer', () => {
  test('four exchanges, each with status, reason, session and next open/close; coverage stated', async () => {
    const answer = await ask({ timezone: 'Asia/Tokyo' }, '2026-11-27T14:45:00Z');
    assert.deepEqual(answer.markets.map((m) => [m.exchange, m.mic, m.timezone]), [
      ['NYSE', 'XNYS', 'America/New_York'], ['LSE', 'XLON', 'Europe/London'], ['TSE', 'XTKS', 'Asia/Tokyo'], ['HKEX', 'XHKG', 'Asia/Hong_Kong'],
    ]);
    const nyse = answer.markets[0]!;
    assert.deepEqual([nyse.status, nyse.reason, nyse.holiday, nyse.nextClose], ['open', 'half_day_session', 'Day after Thanksgiving', '2026-11-27T13:00:00-05:00']);
    assert.deepEqual(answer.calendarCoverage.years, [2026, 2027]);
    assert.equal(answer.calendarCoverage.coversThisAnswer, true);
  });

  test('outside 2026-2027 the answer says the calendar does not cover it', async () => {
    const answer = await ask({ timezone: 'UTC' }, '2028-06-01T12:00:00Z');
    assert.equal(answer.calendarCoverage.coversThisAnswer, false);
    assert.match(answer.calendarCoverage.note, /do not cover/);
    assert.ok(answer.markets.every((m) => !m.calendarCovered));
  });

  test('a call takes milliseconds once the name index is built', async () => {
    await ask({ timezone: 'Paris' }, '2026-06-01T12:00:00Z');
    const started = performance.now();
    for (let i = 0; i < 20; i += 1) await ask({ timezone: 'Sydney' }, '2026-06-01T12:00:00Z');
    const perCall = (performance.now() - started) / 20;
    assert.ok(perCall < 50, `${perCall.toFixed(1)} ms per call`);
  });
});

describe('calculate_timezone_and_markets: bad input is refused before payment, naming timezone', () => {
  test('unknown zone or city: 400 with the closest names', () => {
    const [issue] = issuesOf({ timezone: 'Pariss' });
    assert.deepEqual(issue?.path, ['timezone']);
    assert.match(issue?.message ?? '', /unknown time zone or city "Pariss".*did you mean: Paris, France \(Europe\/Paris\)/);
    assert.match(issuesOf({ timezone: 'Europe/Pariss' })[0]?.message ?? '', /did you mean: Europe\/Paris/);
    assert.match(issuesOf({ timezone: 'Toky' })[0]?.message ?? '', /Tokyo, Japan \(Asia\/Tokyo\)/);
    assert.deepEqual(issuesOf({ timezone: 'Narnia' })[0]?.path, ['timezone']);
    assert.deepEqual(issuesOf({ timezone: 'Mars/Olympus_Mons' })[0]?.path, ['timezone']);
    assert.deepEqual(issuesOf({ timezone: '../../etc/passwd' })[0]?.path, ['timezone']);
    assert.deepEqual(issuesOf({ timezone: 'Paris, Narnia' })[0]?.path, ['timezone']);
  });

  test('empty, blank, too long, or not a string', () => {
    assert.deepEqual(issuesOf({ timezone: '' })[0]?.path, ['timezone']);
    assert.deepEqual(issuesOf({ timezone: '   ' })[0]?.path, ['timezone']);
    assert.deepEqual(issuesOf({ timezone: 'a'.repeat(101) })[0]?.path, ['timezone']);
    assert.deepEqual(issuesOf({ timezone: 42 })[0]?.path, ['timezone']);
  });

  test('a direct handler call with an unknown name throws a 400 ToolError with suggestions', async () => {
    assert.ok(timezoneTool.handler);
    await assert.rejects(
      timezoneTool.handler({ timezone: 'Pariss' }, contextAt('2026-01-01T00:00:00Z')),
      (error: unknown) => error instanceof ToolError && error.status === 400 && (error.details?.suggestions as string[])[0] === 'Paris, France (Europe/Paris)',
    );
  });
});
