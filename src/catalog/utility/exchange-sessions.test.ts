// Market status at pinned instants. Every expected value is worked out by hand from the published
// session times (NYSE 09:30-16:00 ET, LSE 08:00-16:30 UK, TSE 09:00-11:30 and 12:30-15:30 JST,
// HKEX 09:30-12:00 and 13:00-16:00 HKT), the holiday lists, and the DST rules (US: second Sunday of
// March to first Sunday of November; UK: last Sunday of March to last Sunday of October, 01:00 UTC).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Exchange, MarketStatus } from './exchange-sessions.ts';
import { EXCHANGES, marketStatus } from './exchange-sessions.ts';

const exchange = (id: Exchange['id']) => EXCHANGES.find((e) => e.id === id)!;
const statusOf = (id: Exchange['id'], utc: string): MarketStatus => marketStatus(exchange(id), Date.parse(utc));

function expectStatus(id: Exchange['id'], utc: string, expected: Partial<MarketStatus>) {
  const actual = statusOf(id, utc);
  const picked = Object.fromEntries(Object.keys(expected).map((key) => [key, actual[key as keyof MarketStatus]]));
  assert.deepEqual(picked, expected, `${id} at ${utc}: ${actual.detail}`);
}

describe('market status: weekends and DST', () => {
  test('Saturday: all closed for the weekend; the NYSE reopens Monday at 09:30 EDT, after the US clocks changed on Sunday', () => {
    for (const id of ['NYSE', 'LSE', 'TSE', 'HKEX'] as const) expectStatus(id, '2026-03-07T15:00:00Z', { status: 'closed', reason: 'weekend', session: null });
    expectStatus('NYSE', '2026-03-07T15:00:00Z', { nextOpen: '2026-03-09T09:30:00-04:00', nextClose: '2026-03-09T16:00:00-04:00' });
    expectStatus('LSE', '2026-03-07T15:00:00Z', { nextOpen: '2026-03-09T08:00:00+00:00' });
  });

  test('the NYSE opens at 14:30 UTC before the US change and at 13:30 UTC after it; London still opens at 08:00 UTC', () => {
    expectStatus('NYSE', '2026-03-06T14:29:59Z', { status: 'pre_open', reason: 'pre_open', localTime: '2026-03-06T09:29:59-05:00' });
    expectStatus('NYSE', '2026-03-06T14:30:00Z', { status: 'open', reason: 'regular_session' });
    expectStatus('NYSE', '2026-03-09T13:29:59Z', { status: 'pre_open', nextOpen: '2026-03-09T09:30:00-04:00' });
    expectStatus('NYSE', '2026-03-09T13:30:00Z', { status: 'open', nextClose: '2026-03-09T16:00:00-04:00' });
    expectStatus('LSE', '2026-03-09T08:00:00Z', { status: 'open', localTime: '2026-03-09T08:00:00+00:00' });
  });

  test('after the UK change on 29 March 2026 the LSE opens at 07:00 UTC, pre-open from 06:50 UTC', () => {
    expectStatus('LSE', '2026-03-30T06:49:59Z', { status: 'closed', reason: 'before_open' });
    expectStatus('LSE', '2026-03-30T06:50:00Z', { status: 'pre_open', localTime: '2026-03-30T07:50:00+01:00' });
    expectStatus('LSE', '2026-03-30T07:00:00Z', { status: 'open', nextClose: '2026-03-30T16:30:00+01:00' });
    expectStatus('LSE', '2026-03-30T15:30:00Z', { status: 'closed', reason: 'after_close', nextOpen: '2026-03-31T08:00:00+01:00' });
  });

  test('the NYSE on the US fall-back Monday (2 November 2026) opens at 14:30 UTC again', () => {
    expectStatus('NYSE', '2026-11-02T14:29:00Z', { status: 'pre_open' });
    expectStatus('NYSE', '2026-11-02T14:30:00Z', { status: 'open', localTime: '2026-11-02T09:30:00-05:00' });
  });
});

describe('market status: pre-open and lunch breaks', () => {
  test('pre-open windows: NYSE from 06:30 ET, LSE 07:50, TSE 08:00, HKEX 09:00; before them, closed', () => {
    expectStatus('NYSE', '2026-03-10T10:00:00Z', { status: 'closed', reason: 'before_open', nextOpen: '2026-03-10T09:30:00-04:00' }); // 06:00 EDT
    expectStatus('NYSE', '2026-03-10T10:30:00Z', { status: 'pre_open', reason: 'pre_open' }); // 06:30 EDT
    expectStatus('LSE', '2026-03-10T07:55:00Z', { status: 'pre_open' });
    expectStatus('TSE', '2026-03-09T23:30:00Z', { status: 'pre_open', localTime: '2026-03-10T08:30:00+09:00', nextOpen: '2026-03-10T09:00:00+09:00' });
    expectStatus('HKEX', '2026-03-10T01:15:00Z', { status: 'pre_open', localTime: '2026-03-10T09:15:00+08:00' });
    expectStatus('HKEX', '2026-03-10T00:59:00Z', { status: 'closed', reason: 'before_open' });
  });

  test('TSE: open until 11:30, lunch break to 12:30, open to 15:30', () => {
    expectStatus('TSE', '2026-03-10T02:29:59Z', { status: 'open', nextClose: '2026-03-10T11:30:00+09:00', nextOpen: '2026-03-10T12:30:00+09:00' });
    expectStatus('TSE', '2026-03-10T02:30:00Z', { status: 'lunch_break', reason: 'lunch_break', nextOpen: '2026-03-10T12:30:00+09:00', nextClose: '2026-03-10T15:30:00+09:00' });
    expectStatus('TSE', '2026-03-10T03:30:00Z', { status: 'open', nextClose: '2026-03-10T15:30:00+09:00', nextOpen: '2026-03-11T09:00:00+09:00' });
    expectStatus('TSE', '2026-03-10T06:30:00Z', { status: 'closed', reason: 'after_close' });
  });

  test('HKEX: lunch break 12:00-13:00', () => {
    expectStatus('HKEX', '2026-03-10T04:30:00Z', { status: 'lunch_break', localTime: '2026-03-10T12:30:00+08:00', nextOpen: '2026-03-10T13:00:00+08:00' });
    expectStatus('HKEX', '2026-03-10T05:00:00Z', { status: 'open', nextClose: '2026-03-10T16:00:00+08:00' });
  });
});

describe('market status: holidays and half days', () => {
  test('Good Friday 2026: NYSE, LSE and HKEX closed for it; the TSE trades', () => {
    expectStatus('NYSE', '2026-04-03T15:00:00Z', { status: 'closed', reason: 'holiday', holiday: 'Good Friday', nextOpen: '2026-04-06T09:30:00-04:00' });
    // Easter Monday closes London too.
    expectStatus('LSE', '2026-04-03T10:00:00Z', { status: 'closed', reason: 'holiday', nextOpen: '2026-04-07T08:00:00+01:00' });
    // Hong Kong: Good Friday, then 6 April (day after Ching Ming) and 7 April (day after Easter Monday).
    expectStatus('HKEX', '2026-04-03T03:00:00Z', { status: 'closed', reason: 'holiday', nextOpen: '2026-04-08T09:30:00+08:00' });
    expectStatus('TSE', '2026-04-03T01:00:00Z', { status: 'open', holiday: null });
  });

  test('NYSE half day after Thanksgiving: open until 13:00 ET, then closed (early close)', () => {
    expectStatus('NYSE', '2026-11-27T17:59:59Z', { status: 'open', reason: 'half_day_session', holiday: 'Day after Thanksgiving', nextClose: '2026-11-27T13:00:00-05:00' });
    expectStatus('NYSE', '2026-11-27T18:00:00Z', { status: 'closed', reason: 'early_close', nextOpen: '2026-11-30T09:30:00-05:00' });
    assert.deepEqual(statusOf('NYSE', '2026-11-27T15:00:00Z').session, {
      date: '2026-11-27', preOpen: '06:30', open: '09:30', lunchBreak: null, close: '13:00', halfDay: true,
    });
  });

  test('LSE Christmas Eve 2026 closes at 12:30, then Christmas, the weekend and Boxing Day (substitute)', () => {
    expectStatus('LSE', '2026-12-24T12:29:00Z', { status: 'open', reason: 'half_day_session', nextClose: '2026-12-24T12:30:00+00:00' });
    expectStatus('LSE', '2026-12-24T12:30:00Z', { status: 'closed', reason: 'early_close', nextOpen: '2026-12-29T08:00:00+00:00' });
  });

  test('HKEX Lunar New Year\'s Eve 2026: a morning session only, then three days of Lunar New Year', () => {
    expectStatus('HKEX', '2026-02-16T03:30:00Z', { status: 'open', reason: 'half_day_session', nextClose: '2026-02-16T12:00:00+08:00', nextOpen: '2026-02-20T09:30:00+08:00' });
    expectStatus('HKEX', '2026-02-16T05:00:00Z', { status: 'closed', reason: 'early_close' });
    expectStatus('HKEX', '2026-02-18T03:00:00Z', { status: 'closed', reason: 'holiday', holiday: 'The second day of Lunar New Year' });
  });

  test('New Year 2027: NYSE open on 31 December; TSE and HKEX closed on 1 January; everyone back on Monday 4 January', () => {
    expectStatus('NYSE', '2026-12-31T20:59:00Z', { status: 'open', reason: 'regular_session', nextOpen: '2027-01-04T09:30:00-05:00' });
    expectStatus('LSE', '2026-12-31T23:30:00Z', { status: 'closed', reason: 'early_close', nextOpen: '2027-01-04T08:00:00+00:00' });
    expectStatus('TSE', '2026-12-31T23:30:00Z', { status: 'closed', reason: 'holiday', holiday: "New Year's Day", nextOpen: '2027-01-04T09:00:00+09:00' });
    expectStatus('TSE', '2026-12-31T01:00:00Z', { status: 'closed', reason: 'holiday', holiday: 'Market holiday (New Year)' });
    expectStatus('HKEX', '2026-12-31T23:30:00Z', { status: 'closed', reason: 'holiday', nextOpen: '2027-01-04T09:30:00+08:00' });
    expectStatus('HKEX', '2026-12-31T03:00:00Z', { status: 'open', reason: 'half_day_session', holiday: "New Year's Eve" });
  });
});

describe('market status: outside the holiday calendar', () => {
  test('a day in 2025 is flagged as not covered, not guessed silently', () => {
    const christmas2025 = statusOf('NYSE', '2025-12-25T15:00:00Z');
    assert.equal(christmas2025.calendarCovered, false);
    assert.match(christmas2025.detail, /covers 2026 and 2027 only/);
  });

  test('the last days of 2027 are covered, but a next open in 2028 is flagged', () => {
    expectStatus('TSE', '2027-12-30T01:00:00Z', { status: 'open', calendarCovered: true, nextClose: '2027-12-30T11:30:00+09:00' });
    // 31 December 2027 is a TSE holiday, 1-2 January 2028 a weekend; 3 January 2028 is outside the table.
    expectStatus('TSE', '2027-12-30T07:00:00Z', { status: 'closed', nextOpen: '2028-01-03T09:00:00+09:00', calendarCovered: false });
  });
});

describe('market status: consistency over 200 instants of a year', () => {
  test('next open and close are in the future, alternate with the status, and the status at them agrees', () => {
    const start = Date.parse('2026-01-01T00:00:00Z');
    for (let i = 0; i < 200; i += 1) {
      const now = start + Math.floor(((i * 2654435761) % 2 ** 32) / 2 ** 32 * 360 * 86_400_000);
      for (const ex of EXCHANGES) {
        const status = marketStatus(ex, now);
        const nextOpen = Date.parse(status.nextOpen!);
        const nextClose = Date.parse(status.nextClose!);
        assert.ok(nextOpen > now && nextClose > now, `${ex.id} ${new Date(now).toISOString()}`);
        if (status.status === 'open') assert.ok(nextClose < nextOpen, `${ex.id} ${new Date(now).toISOString()} open`);
        else assert.ok(nextOpen < nextClose, `${ex.id} ${new Date(now).toISOString()} ${status.status}`);
        assert.equal(marketStatus(ex, nextOpen).status, 'open', `${ex.id} at its next open ${status.nextOpen}`);
        assert.notEqual(marketStatus(ex, nextClose).status, 'open', `${ex.id} at its next close ${status.nextClose}`);
        assert.notEqual(marketStatus(ex, nextOpen - 1000).status, 'open', `${ex.id} just before ${status.nextOpen}`);
      }
    }
  });
});
