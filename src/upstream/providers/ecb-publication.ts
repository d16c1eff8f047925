// When the European Central Bank publishes its next euro foreign exchange reference rates: around
// 16:00 CET (Frankfurt local time) on every TARGET working day. TARGET2 is closed on Saturdays,
// Sundays, 1 January, Good Friday, Easter Monday, 1 May, 25 and 26 December
// (https://www.ecb.europa.eu/paym/target/target2/profuse/calendar/html/index.en.html), and the ECB
// publishes no reference rates on those days.

const DAY_MS = 24 * 60 * 60_000;
const PUBLICATION_HOUR_LOCAL = 16;
/** Once a publication is overdue (late at the ECB, or not yet fetched by Frankfurter), ask again this often. */
export const OVERDUE_RECHECK_MS = 15 * 60_000;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days since the epoch of a YYYY-MM-DD calendar date, or undefined when it is not one. */
export function dayNumberOf(isoDate: string): number | undefined {
  const match = ISO_DATE.exec(isoDate);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  const date = new Date(ms);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return ms / DAY_MS;
}

/** Easter Sunday of a Gregorian year (the anonymous Gregorian computus), as days since the epoch. */
export function easterSunday(year: number): number {
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
  return Date.UTC(year, month - 1, day) / DAY_MS;
}

/** Whether TARGET2 is closed (and the ECB publishes no reference rates) on this day. */
export function isTargetClosingDay(dayNumber: number): boolean {
  const date = new Date(dayNumber * DAY_MS);
  const weekday = date.getUTCDay();
  if (weekday === 0 || weekday === 6) return true;
  const month = date.getUTCMonth() + 1;
  const day = date.getUTCDate();
  if ((month === 1 && day === 1) || (month === 5 && day === 1) || (month === 12 && (day === 25 || day === 26))) return true;
  const easter = easterSunday(date.getUTCFullYear());
  return dayNumber === easter - 2 || dayNumber === easter + 1;
}

/** The last Sunday of a month (1-12), as days since the epoch. */
function lastSunday(year: number, month: number): number {
  const lastDay = Date.UTC(year, month, 0) / DAY_MS;
  return lastDay - new Date(lastDay * DAY_MS).getUTCDay();
}

/**
 * 16:00 in Frankfurt on that day, as epoch ms. Central European Summer Time (UTC+2) runs from the
 * last Sunday of March to the last Sunday of October (Directive 2000/84/EC); 16:00 is past both
 * switches, so the switch days themselves count as summer and winter time respectively.
 */
export function frankfurtAfternoon(dayNumber: number): number {
  const year = new Date(dayNumber * DAY_MS).getUTCFullYear();
  const summer = dayNumber >= lastSunday(year, 3) && dayNumber < lastSunday(year, 10);
  const offsetHours = summer ? 2 : 1;
  return dayNumber * DAY_MS + (PUBLICATION_HOUR_LOCAL - offsetHours) * 60 * 60_000;
}

/** When the publication after the one dated `rateDate` (YYYY-MM-DD) is due, as epoch ms. */
export function nextPublicationAfter(rateDate: string): number | undefined {
  const dayNumber = dayNumberOf(rateDate);
  if (dayNumber === undefined) return undefined;
  let next = dayNumber + 1;
  while (isTargetClosingDay(next)) next += 1;
  return frankfurtAfternoon(next);
}

/**
 * How long rates dated `rateDate` stay fresh at `now`: until the next publication is due, then
 * (when the newer rates have not arrived yet) a short recheck interval. Undefined for a date that
 * is not one.
 */
export function freshForRatesOf(rateDate: string, now: number): number | undefined {
  const due = nextPublicationAfter(rateDate);
  if (due === undefined) return undefined;
  return due > now ? due - now : OVERDUE_RECHECK_MS;
}
