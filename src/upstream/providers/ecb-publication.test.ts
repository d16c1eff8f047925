import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { dayNumberOf, easterSunday, freshForRatesOf, isTargetClosingDay, nextPublicationAfter, OVERDUE_RECHECK_MS } from './ecb-publication.ts';

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
const day = (date: string) => dayNumberOf(date)!;

describe('easterSunday', () => {
  test('matches the published dates of Easter', () => {
    for (const [year, date] of [[2000, '2000-04-23'], [2019, '2019-04-21'], [2024, '2024-03-31'], [2025, '2025-04-20'], [2026, '2026-04-05'], [2027, '2027-03-28']] as const) {
      assert.equal(easterSunday(year), day(date), String(year));
    }
  });
});

describe('isTargetClosingDay', () => {
  test('weekends and the six TARGET holidays are closed, other days open', () => {
    for (const closed of ['2026-11-21', '2026-11-22', '2026-01-01', '2026-04-03', '2026-04-06', '2026-05-01', '2025-12-25', '2025-12-26']) {
      assert.equal(isTargetClosingDay(day(closed)), true, closed);
    }
    for (const open of ['2026-11-23', '2026-04-02', '2026-04-07', '2025-12-24', '2025-12-31', '2026-05-04']) {
      assert.equal(isTargetClosingDay(day(open)), false, open);
    }
  });
});

describe('nextPublicationAfter', () => {
  test('Friday rates are followed on Monday at 16:00 Frankfurt time (CET is UTC+1, CEST UTC+2)', () => {
    assert.equal(iso(nextPublicationAfter('2026-11-20')), '2026-11-23T15:00:00.000Z');
    assert.equal(iso(nextPublicationAfter('2026-08-21')), '2026-08-24T14:00:00.000Z');
  });

  test('a weekday is followed by the next day', () => {
    assert.equal(iso(nextPublicationAfter('2026-11-23')), '2026-11-24T15:00:00.000Z');
  });

  test('Easter: Maundy Thursday is followed by the Tuesday after Easter Monday', () => {
    assert.equal(iso(nextPublicationAfter('2026-04-02')), '2026-04-07T14:00:00.000Z');
  });

  test('1 May, Christmas and New Year are skipped', () => {
    assert.equal(iso(nextPublicationAfter('2026-04-30')), '2026-05-04T14:00:00.000Z');
    assert.equal(iso(nextPublicationAfter('2025-12-24')), '2025-12-29T15:00:00.000Z');
    assert.equal(iso(nextPublicationAfter('2026-12-31')), '2027-01-04T15:00:00.000Z');
  });

  test('summer time starts on the last Sunday of March and ends on the last Sunday of October', () => {
    assert.equal(iso(nextPublicationAfter('2026-03-27')), '2026-03-30T14:00:00.000Z');
    assert.equal(iso(nextPublicationAfter('2026-10-23')), '2026-10-26T15:00:00.000Z');
  });

  test('no answer for something that is not a calendar date', () => {
    assert.equal(nextPublicationAfter('2026-02-30'), undefined);
    assert.equal(nextPublicationAfter('yesterday'), undefined);
  });
});

describe('freshForRatesOf', () => {
  test('fresh until the next publication is due', () => {
    // Saturday 10:00 UTC to Monday 15:00 UTC: 53 hours.
    assert.equal(freshForRatesOf('2026-11-20', Date.parse('2026-11-21T10:00:00Z')), 53 * 60 * 60_000);
  });

  test('once the next publication is overdue, checked again shortly', () => {
    assert.equal(freshForRatesOf('2026-11-20', Date.parse('2026-11-23T15:30:00Z')), OVERDUE_RECHECK_MS);
  });
});
