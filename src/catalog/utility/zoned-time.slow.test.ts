// Weekly sampling in nextOffsetChange misses no transition: every ICU zone, from four starting
// instants, against a scan of the following year every six hours (then minute by minute).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nextOffsetChange, utcOffsetMinutesAt } from './zoned-time.ts';

const HOUR_MS = 3_600_000;

function scanForChange(zone: string, from: number, days: number): number | null {
  const initial = utcOffsetMinutesAt(zone, from);
  for (let t = from + 6 * HOUR_MS; t <= from + days * 86_400_000; t += 6 * HOUR_MS) {
    if (utcOffsetMinutesAt(zone, t) !== initial) {
      for (let m = t - 6 * HOUR_MS; m <= t; m += 60_000) if (utcOffsetMinutesAt(zone, m) !== initial) return m;
    }
  }
  return null;
}

test('every zone: the next offset change equals the six-hourly scan', () => {
  const zones = [...Intl.supportedValuesOf('timeZone'), 'UTC'];
  for (const start of ['2026-01-01T00:00:00Z', '2026-06-15T00:00:00Z', '2027-01-01T00:00:00Z', '2027-09-30T00:00:00Z']) {
    const from = Date.parse(start);
    for (const zone of zones) assert.equal(nextOffsetChange(zone, from)?.at ?? null, scanForChange(zone, from, 366), `${zone} from ${start}`);
  }
});
