// Wall-clock time in an IANA time zone, from the platform's ICU time zone data through
// Intl.DateTimeFormat (Node 20 ships full ICU). Instants are epoch milliseconds, as Date uses.

export interface CalendarDate {
  year: number;
  /** 1-12 */
  month: number;
  day: number;
}

export interface WallClock extends CalendarDate {
  hour: number;
  minute: number;
  second: number;
  /** 0 = Sunday ... 6 = Saturday */
  weekday: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', weekday: 'short',
      year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

const weekdays: Readonly<Record<string, number>> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

export function wallClockAt(zone: string, instant: number): WallClock {
  const clock: WallClock = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0, weekday: 0 };
  for (const part of formatterFor(zone).formatToParts(instant)) {
    switch (part.type) {
      case 'year': clock.year = Number(part.value); break;
      case 'month': clock.month = Number(part.value); break;
      case 'day': clock.day = Number(part.value); break;
      case 'hour': clock.hour = Number(part.value); break;
      case 'minute': clock.minute = Number(part.value); break;
      case 'second': clock.second = Number(part.value); break;
      case 'weekday': clock.weekday = weekdays[part.value] ?? 0; break;
      default: break;
    }
  }
  return clock;
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();
// "GMT", "GMT+09:00", "GMT-03:30" (and seconds, for local mean times of the 19th century).
const longOffset = /GMT(?:([+-])(\d{2}):(\d{2})(?::\d{2})?)?$/;

/** Minutes east of UTC in `zone` at `instant` (Tokyo: 540, New York in winter: -300). */
export function utcOffsetMinutesAt(zone: string, instant: number): number {
  let formatter = offsetFormatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    offsetFormatters.set(zone, formatter);
  }
  const match = longOffset.exec(formatter.format(instant));
  if (!match) throw new Error(`no UTC offset in ICU's answer for ${zone}`);
  if (!match[1]) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

/**
 * The instant at which the wall clock in `zone` shows `minuteOfDay` on `date`. A wall time skipped
 * by a DST gap maps to the instant the same distance after the gap's start; a repeated one to its
 * first occurrence. (Exchange sessions never fall in either.)
 */
export function instantAtWallClock(zone: string, date: CalendarDate, minuteOfDay: number): number {
  const wallAsUtc = Date.UTC(date.year, date.month - 1, date.day) + minuteOfDay * MINUTE_MS;
  const firstGuess = wallAsUtc - utcOffsetMinutesAt(zone, wallAsUtc) * MINUTE_MS;
  const offset = utcOffsetMinutesAt(zone, firstGuess);
  const secondGuess = wallAsUtc - offset * MINUTE_MS;
  if (utcOffsetMinutesAt(zone, secondGuess) === offset) {
    // Of two readings of a repeated wall time, the earlier one.
    const earlierOffset = utcOffsetMinutesAt(zone, secondGuess - 3 * 3_600_000);
    const earlier = wallAsUtc - earlierOffset * MINUTE_MS;
    if (earlier < secondGuess && utcOffsetMinutesAt(zone, earlier) === earlierOffset) return earlier;
    return secondGuess;
  }
  return firstGuess;
}

/** "+09:00", "-04:00", "+05:45", "+00:00". */
export function formatUtcOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const absolute = Math.abs(minutes);
  return `${sign}${String(Math.floor(absolute / 60)).padStart(2, '0')}:${String(absolute % 60).padStart(2, '0')}`;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export function isoDate(date: CalendarDate): string {
  return `${pad(date.year, 4)}-${pad(date.month)}-${pad(date.day)}`;
}

/** ISO 8601 local time with its offset, to the second: "2026-03-09T09:30:00-04:00". */
export function isoWithOffset(instant: number, offsetMinutes: number): string {
  const shifted = new Date(Math.floor(instant / 1000) * 1000 + offsetMinutes * MINUTE_MS);
  const date = { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
  return `${isoDate(date)}T${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}:${pad(shifted.getUTCSeconds())}${formatUtcOffset(offsetMinutes)}`;
}

/** The local ISO time of `instant` in `zone`. */
export function isoInZone(zone: string, instant: number): string {
  return isoWithOffset(instant, utcOffsetMinutesAt(zone, instant));
}

/** The calendar date `days` after `date`. */
export function addDays(date: CalendarDate, days: number): CalendarDate & { weekday: number } {
  const shifted = new Date(Date.UTC(date.year, date.month - 1, date.day) + days * DAY_MS);
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate(), weekday: shifted.getUTCDay() };
}

export interface OffsetChange {
  /** The first instant (whole second) with the new offset. */
  at: number;
  offsetBefore: number;
  offsetAfter: number;
}

/** Spacing of the offset samples: no zone's rules change its offset and back within a week. */
const SAMPLE_MS = 7 * DAY_MS;

/**
 * The first change of UTC offset in `zone` after `from`, within `horizonMs`, or null. Samples the
 * offset once a week (zoned-time.test.ts checks every zone against daily samples), then bisects
 * the week in which it changed down to the second.
 */
export function nextOffsetChange(zone: string, from: number, horizonMs = 366 * DAY_MS): OffsetChange | null {
  const start = Math.floor(from / 1000) * 1000;
  const offsetAtStart = utcOffsetMinutesAt(zone, start);
  let before = start;
  for (let probe = start + SAMPLE_MS; probe <= start + horizonMs + SAMPLE_MS; probe += SAMPLE_MS) {
    const offset = utcOffsetMinutesAt(zone, probe);
    if (offset !== offsetAtStart) {
      let low = before; // offset is offsetAtStart
      let high = probe; // offset has changed
      while (high - low > 1000) {
        const middle = low + Math.floor((high - low) / 2000) * 1000;
        if (utcOffsetMinutesAt(zone, middle) === offsetAtStart) low = middle;
        else high = middle;
      }
      if (high - start > horizonMs) return null;
      return { at: high, offsetBefore: offsetAtStart, offsetAfter: utcOffsetMinutesAt(zone, high) };
    }
    before = probe;
  }
  return null;
}
