// Provider timestamps as ISO 8601 UTC strings.

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/;
const WAYBACK_STAMP = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/;

/** Whether the parts name a real calendar date and time (Date silently rolls 31 February over). */
function isRealDateTime(year: number, month: number, day: number, hour: number, minute: number, second: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second
  );
}

/**
 * A date or date-time as engines give it, as ISO 8601 UTC. One without a zone (SearXNG's
 * `2026-02-17T00:00:00`, Brave's `page_age`, DuckDuckGo's `2025-06-23T00:00:00.0000000`) is
 * read as UTC: the engines do not say which zone they mean. Undefined when it is not a date.
 */
export function isoFromDateTime(value: string): string | undefined {
  const match = DATE_TIME.exec(value.trim());
  if (!match) return undefined;
  const [, year, month, day, hour = '00', minute = '00', second = '00', zone = 'Z'] = match;
  if (!isRealDateTime(Number(year), Number(month), Number(day), Number(hour), Number(minute), Number(second))) return undefined;
  const offset = zone === 'Z' ? zone : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  const date = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}${offset}`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The Wayback Machine's 14-digit UTC stamp (`20130919044612`) as ISO 8601, or undefined. */
export function isoFromWaybackStamp(stamp: string): string | undefined {
  const match = WAYBACK_STAMP.exec(stamp);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second] = match;
  if (!isRealDateTime(Number(year), Number(month), Number(day), Number(hour), Number(minute), Number(second))) return undefined;
  return `${year}-${month}-${day}T${hour}:${minute}:${second}Z`;
}
