// The exchange holiday tables checked against references that share no code or data with them:
// the NYSE's Rule 7.2 derived here from first principles (the Gregorian Easter computus, "third
// Monday" rules, weekend observance), and the public holidays of the date-holidays package
// (its own rule files for GB, JP and HK, lunar dates included) mapped to each exchange's practice.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Holidays from 'date-holidays';
import type { ExchangeCalendar } from './exchange-calendars.ts';
import { HKEX_CALENDAR, LSE_CALENDAR, NYSE_CALENDAR, TSE_CALENDAR } from './exchange-calendars.ts';

const YEARS = [2026, 2027];
const iso = (year: number, month: number, day: number) =>
  `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
const weekdayOf = (date: string) => new Date(`${date}T12:00:00Z`).getUTCDay();
const isWeekend = (date: string) => [0, 6].includes(weekdayOf(date));
const shift = (date: string, days: number) => new Date(Date.parse(`${date}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const sorted = (dates: Iterable<string>) => [...new Set(dates)].sort();

/** Easter Sunday by the anonymous Gregorian algorithm (Meeus/Jones/Butcher). */
function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return iso(year, month, day);
}

/** The nth (1-based; -1 = last) given weekday of a month. */
function nthWeekday(year: number, month: number, weekday: number, n: number): string {
  if (n > 0) {
    const first = weekdayOf(iso(year, month, 1));
    return iso(year, month, 1 + ((weekday - first + 7) % 7) + (n - 1) * 7);
  }
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const last = weekdayOf(iso(year, month, lastDay));
  return iso(year, month, lastDay - ((last - weekday + 7) % 7));
}

/** NYSE Rule 7.2: a Saturday holiday is taken the Friday before, a Sunday one the Monday after. */
const observed = (date: string) => (weekdayOf(date) === 6 ? shift(date, -1) : weekdayOf(date) === 0 ? shift(date, 1) : date);

function nyseHolidaysByRule(year: number): string[] {
  const newYear = iso(year, 1, 1);
  return sorted([
    // A Saturday New Year's Day is not moved back into the previous year (end of the accounting year).
    ...(weekdayOf(newYear) === 6 ? [] : [observed(newYear)]),
    nthWeekday(year, 1, 1, 3), // Martin Luther King, Jr. Day
    nthWeekday(year, 2, 1, 3), // Washington's Birthday
    shift(easterSunday(year), -2), // Good Friday
    nthWeekday(year, 5, 1, -1), // Memorial Day
    observed(iso(year, 6, 19)),
    observed(iso(year, 7, 4)),
    nthWeekday(year, 9, 1, 1), // Labor Day
    nthWeekday(year, 11, 4, 4), // Thanksgiving
    observed(iso(year, 12, 25)),
  ]);
}

function holidaysIn(calendar: ExchangeCalendar, year: number): string[] {
  return sorted([...calendar.holidays.keys()].filter((date) => date.startsWith(`${year}-`)));
}
function halfDaysIn(calendar: ExchangeCalendar, year: number): string[] {
  return sorted([...calendar.halfDays.keys()].filter((date) => date.startsWith(`${year}-`)));
}

function publicHolidays(country: string, state: string | undefined, year: number) {
  const holidays = state ? new Holidays(country, state) : new Holidays(country);
  return (holidays.getHolidays(year) || []).filter((h) => h.type === 'public').map((h) => ({ date: h.date.slice(0, 10), name: h.name }));
}

describe('exchange holiday tables', () => {
  test('cover 2026 and 2027, hold only weekdays, and never list a day as both holiday and half day', () => {
    for (const calendar of [NYSE_CALENDAR, LSE_CALENDAR, TSE_CALENDAR, HKEX_CALENDAR]) {
      assert.deepEqual(calendar.years, YEARS);
      for (const date of [...calendar.holidays.keys(), ...calendar.halfDays.keys()]) {
        assert.ok(!isWeekend(date), `${calendar.source}: ${date} is a weekend day`);
        assert.ok(YEARS.includes(Number(date.slice(0, 4))), date);
        assert.ok(!(calendar.holidays.has(date) && calendar.halfDays.has(date)), date);
      }
    }
  });

  test('NYSE closures equal Rule 7.2 derived from first principles (Easter computus, weekday rules, observance)', () => {
    for (const year of YEARS) assert.deepEqual(holidaysIn(NYSE_CALENDAR, year), nyseHolidaysByRule(year), String(year));
    // Published facts the rules must reproduce: Good Friday 3 April 2026 and 26 March 2027; Juneteenth
    // 2027 observed on Friday 18 June; no closure on 31 December 2027 for a Saturday New Year.
    assert.ok(NYSE_CALENDAR.holidays.has('2026-04-03') && NYSE_CALENDAR.holidays.has('2027-03-26'));
    assert.ok(NYSE_CALENDAR.holidays.has('2027-06-18'));
    assert.ok(!NYSE_CALENDAR.holidays.has('2027-12-31'));
  });

  test('NYSE closures equal the US federal holidays of date-holidays, less Columbus and Veterans Day, plus Good Friday', () => {
    for (const year of YEARS) {
      const federal = publicHolidays('US', undefined, year)
        .filter((h) => !/Columbus|Veterans/.test(h.name) && !isWeekend(h.date))
        // date-holidays moves a Saturday New Year's Day to 31 December; Rule 7.2 does not.
        .filter((h) => !(h.date.endsWith('-12-31') && /New Year/.test(h.name)))
        .map((h) => h.date);
      assert.deepEqual(holidaysIn(NYSE_CALENDAR, year), sorted([...federal, shift(easterSunday(year), -2)]), String(year));
    }
  });

  test('NYSE early closes: the day after Thanksgiving, and Christmas Eve when it is a trading day', () => {
    for (const year of YEARS) {
      const christmasEve = iso(year, 12, 24);
      const expected = [shift(nthWeekday(year, 11, 4, 4), 1)];
      if (!isWeekend(christmasEve) && !NYSE_CALENDAR.holidays.has(christmasEve)) expected.push(christmasEve);
      assert.deepEqual(halfDaysIn(NYSE_CALENDAR, year), sorted(expected), String(year));
    }
  });

  test('LSE closures equal the England and Wales bank holidays of date-holidays on weekdays; half days on the 24th and 31st of December', () => {
    for (const year of YEARS) {
      const bankHolidays = publicHolidays('GB', 'ENG', year).map((h) => h.date).filter((date) => !isWeekend(date));
      assert.deepEqual(holidaysIn(LSE_CALENDAR, year), sorted(bankHolidays), String(year));
      assert.deepEqual(halfDaysIn(LSE_CALENDAR, year), [iso(year, 12, 24), iso(year, 12, 31)].filter((date) => !isWeekend(date)), String(year));
    }
  });

  test('TSE closures equal Japan\'s national holidays of date-holidays on weekdays, plus 2-3 January and 31 December', () => {
    for (const year of YEARS) {
      const national = publicHolidays('JP', undefined, year).map((h) => h.date);
      const exchangeDays = [iso(year, 1, 2), iso(year, 1, 3), iso(year, 12, 31)];
      assert.deepEqual(holidaysIn(TSE_CALENDAR, year), sorted([...national, ...exchangeDays].filter((date) => !isWeekend(date))), String(year));
      assert.deepEqual(halfDaysIn(TSE_CALENDAR, year), []);
    }
  });

  test('HKEX closures equal Hong Kong\'s general holidays of date-holidays (lunar dates computed there) on weekdays', () => {
    for (const year of YEARS) {
      const general = publicHolidays('HK', undefined, year).map((h) => h.date).filter((date) => !isWeekend(date));
      assert.deepEqual(holidaysIn(HKEX_CALENDAR, year), sorted(general), String(year));
    }
  });

  test('HKEX half days: the eves of Christmas, New Year and Lunar New Year (from date-holidays) that are trading days', () => {
    for (const year of YEARS) {
      const lunarNewYear = new Holidays('HK').getHolidays(year).find((h) => h.name === '農曆年初一');
      assert.ok(lunarNewYear, `date-holidays knows Lunar New Year ${year}`);
      const eves = [shift(lunarNewYear.date.slice(0, 10), -1), iso(year, 12, 24), iso(year, 12, 31)];
      const expected = eves.filter((date) => !isWeekend(date) && !HKEX_CALENDAR.holidays.has(date));
      assert.deepEqual(halfDaysIn(HKEX_CALENDAR, year), sorted(expected), String(year));
    }
    // Hand-checked: Lunar New Year's Day is 17 February 2026 and 6 February 2027.
    assert.ok(HKEX_CALENDAR.halfDays.has('2026-02-16') && HKEX_CALENDAR.halfDays.has('2027-02-05'));
  });
});
