// The Intl-based time helpers, against independent computations: offsets read from ICU's long
// offset name are compared with offsets derived from the wall clock fields of another formatter,
// for every zone; wall times are compared with the UTC arithmetic of Date; transition search is
// compared with a day-by-day scan (every zone over two years in zoned-time.slow.test.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatUtcOffset, instantAtWallClock, isoWithOffset, nextOffsetChange, utcOffsetMinutesAt, wallClockAt } from './zoned-time.ts';

const zones = [...Intl.supportedValuesOf('timeZone'), 'UTC'];

/** Offset from the wall clock fields: local time read as if UTC, minus the instant. */
function offsetFromWallClock(zone: string, instant: number): number {
  const clock = wallClockAt(zone, instant);
  return Math.round((Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second) - Math.floor(instant / 1000) * 1000) / 60_000);
}

/** The first offset change after `from`, by scanning hour by hour over `days`, then minute by minute. */
function scanForChange(zone: string, from: number, days: number): number | null {
  const initial = utcOffsetMinutesAt(zone, from);
  for (let t = from + 3_600_000; t <= from + days * 86_400_000; t += 3_600_000) {
    if (utcOffsetMinutesAt(zone, t) !== initial) {
      for (let m = t - 3_600_000; m <= t; m += 60_000) if (utcOffsetMinutesAt(zone, m) !== initial) return m;
    }
  }
  return null;
}

describe('zoned time', () => {
  test('offsets agree with the wall clock of a second formatter, for every zone, in January and July', () => {
    for (const zone of zones) {
      for (const instant of [Date.parse('2026-01-15T12:00:00Z'), Date.parse('2026-07-15T12:00:00Z')]) {
        assert.equal(utcOffsetMinutesAt(zone, instant), offsetFromWallClock(zone, instant), zone);
      }
    }
  });

  test('formatting offsets and local ISO times', () => {
    assert.deepEqual([540, -300, 345, -210, 0, 825].map(formatUtcOffset), ['+09:00', '-05:00', '+05:45', '-03:30', '+00:00', '+13:45']);
    assert.equal(isoWithOffset(Date.parse('2026-12-31T15:00:00.999Z'), 540), '2027-01-01T00:00:00+09:00');
    assert.equal(isoWithOffset(Date.parse('2026-03-01T02:00:00Z'), -300), '2026-02-28T21:00:00-05:00');
  });

  test('wall clock to instant: ordinary times, a DST gap, a repeated hour', () => {
    assert.equal(instantAtWallClock('Asia/Tokyo', { year: 2026, month: 1, day: 1 }, 9 * 60), Date.parse('2026-01-01T00:00:00Z'));
    assert.equal(instantAtWallClock('America/New_York', { year: 2026, month: 3, day: 9 }, 9 * 60 + 30), Date.parse('2026-03-09T13:30:00Z'));
    // 02:30 does not exist on 8 March 2026 in New York: it maps 30 minutes past the gap's start, 03:30 EDT.
    assert.equal(instantAtWallClock('America/New_York', { year: 2026, month: 3, day: 8 }, 2 * 60 + 30), Date.parse('2026-03-08T07:30:00Z'));
    assert.equal(instantAtWallClock('Europe/London', { year: 2026, month: 10, day: 25 }, 60 + 30), Date.parse('2026-10-25T00:30:00Z'));
  });

  test('the next offset change matches an hour-by-hour scan, for zones with and without DST', () => {
    const from = Date.parse('2026-02-01T00:00:00Z');
    for (const zone of ['America/New_York', 'Europe/London', 'Australia/Sydney', 'Pacific/Auckland', 'America/Santiago', 'Africa/Casablanca', 'Asia/Tehran', 'Australia/Lord_Howe', 'Asia/Tokyo', 'UTC']) {
      assert.equal(nextOffsetChange(zone, from)?.at ?? null, scanForChange(zone, from, 366), zone);
    }
  });
});
