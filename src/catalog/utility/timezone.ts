import { z } from 'zod';
import { defineTool, ToolError } from '../tool.ts';
import type { MarketStatus } from './exchange-sessions.ts';
import { EXCHANGES, marketStatus } from './exchange-sessions.ts';
import { zoneAbbreviation } from './zone-abbreviation.ts';
import type { ResolvedZone } from './zone-names.ts';
import { resolveZone, suggestZones } from './zone-names.ts';
import { formatUtcOffset, isoWithOffset, nextOffsetChange, utcOffsetMinutesAt, wallClockAt } from './zoned-time.ts';

const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const CALENDAR_YEARS = [2026, 2027] as const;

export interface TimezoneAnswer {
  input: string;
  timezone: string;
  matchedBy: ResolvedZone['matchedBy'];
  city: ResolvedZone['city'] | null;
  utcTime: string;
  localTime: string;
  dayOfWeek: string;
  utcOffset: string;
  utcOffsetMinutes: number;
  abbreviation: string;
  isDst: boolean;
  nextTransition: {
    at: string;
    localTimeAfter: string;
    utcOffsetBefore: string;
    utcOffsetAfter: string;
    abbreviationAfter: string;
    isDstAfter: boolean;
  } | null;
  markets: MarketStatus[];
  calendarCoverage: { years: readonly number[]; coversThisAnswer: boolean; note: string };
}

const utcIso = (instant: number) => new Date(Math.floor(instant / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/**
 * The zone's standard offset in the year of `instant`: the smaller of its offsets on 1 January
 * and 1 July (daylight saving time moves clocks forward, in either hemisphere).
 */
function standardOffsetMinutes(zone: string, instant: number): number {
  const year = new Date(instant).getUTCFullYear();
  return Math.min(utcOffsetMinutesAt(zone, Date.UTC(year, 0, 1)), utcOffsetMinutesAt(zone, Date.UTC(year, 6, 1)));
}

function unknownZoneMessage(query: string): string {
  const suggestions = suggestZones(query);
  return `unknown time zone or city ${JSON.stringify(query)}: expected an IANA time zone ("Europe/Paris") or a city ("Paris", "Portland, Maine")` +
    (suggestions.length > 0 ? `; did you mean: ${suggestions.join('; ')}?` : '');
}

function describeZone(query: string, resolved: ResolvedZone, now: number): Omit<TimezoneAnswer, 'markets' | 'calendarCoverage'> {
  const { zone } = resolved;
  const offset = utcOffsetMinutesAt(zone, now);
  const change = nextOffsetChange(zone, now);
  return {
    input: query,
    timezone: zone,
    matchedBy: resolved.matchedBy,
    city: resolved.city ?? null,
    utcTime: utcIso(now),
    localTime: isoWithOffset(now, offset),
    dayOfWeek: WEEKDAY_NAMES[wallClockAt(zone, now).weekday]!,
    utcOffset: formatUtcOffset(offset),
    utcOffsetMinutes: offset,
    abbreviation: zoneAbbreviation(zone, now),
    isDst: offset > standardOffsetMinutes(zone, now),
    nextTransition: change && {
      at: utcIso(change.at),
      localTimeAfter: isoWithOffset(change.at, change.offsetAfter),
      utcOffsetBefore: formatUtcOffset(change.offsetBefore),
      utcOffsetAfter: formatUtcOffset(change.offsetAfter),
      abbreviationAfter: zoneAbbreviation(zone, change.at),
      isDstAfter: change.offsetAfter > standardOffsetMinutes(zone, change.at),
    },
  };
}

const input = z
  .object({
    timezone: z.string().trim().min(1).max(100).default('UTC').describe('An IANA time zone ("Europe/Paris") or a city name ("Paris").'),
  })
  .superRefine((value, ctx) => {
    const query: unknown = value.timezone;
    if (typeof query !== 'string' || query.length === 0 || query.length > 100) return; // refused by the field itself
    if (!resolveZone(query)) ctx.addIssue({ code: 'custom', path: ['timezone'], message: unknownZoneMessage(query) });
  });

export const timezoneTool = defineTool({
  name: 'calculate_timezone_and_markets',
  title: 'Time zone and market hours',
  description:
    'Returns the local time, UTC offset, abbreviation and DST status of a time zone, and whether the NYSE, LSE, TSE and HKEX are open, with the next open or close. ' +
    'The zone is an IANA name or alias, or a city (the most populous of that name; "City, Country" or "City, State" narrows it). ' +
    'Also gives the next DST transition within a year, and for each exchange the reason (weekend, holiday, half day, pre-open, lunch break), ' +
    `today's session and the next open and close, from each exchange's own holiday calendar for ${CALENDAR_YEARS.join(' and ')}.`,
  price: '0.002',
  http: [{ method: 'GET', path: '/api/tools/timezone' }],
  input,
  example: { timezone: 'Asia/Tokyo' },
  annotations: { readOnlyHint: true, openWorldHint: false },
  async handler(parsed, ctx) {
    const query = parsed.timezone;
    const resolved = resolveZone(query);
    if (!resolved) throw new ToolError(400, 'unknown_timezone', `timezone: ${unknownZoneMessage(query)}`, { suggestions: suggestZones(query) });
    const now = ctx.now().getTime();
    const markets = EXCHANGES.map((exchange) => marketStatus(exchange, now));
    const coversThisAnswer = markets.every((market) => market.calendarCovered);
    const answer: TimezoneAnswer = {
      ...describeZone(query, resolved, now),
      markets,
      calendarCoverage: {
        years: CALENDAR_YEARS,
        coversThisAnswer,
        note: coversThisAnswer
          ? `The exchanges' holiday calendars cover ${CALENDAR_YEARS.join(' and ')}; unscheduled closures (severe weather, days of mourning) cannot be known in advance.`
          : `This answer depends on days outside ${CALENDAR_YEARS.join(' and ')}, which the holiday calendars do not cover: there only weekends are known, and every weekday is assumed to be a regular trading day (see calendarCovered per market).`,
      },
    };
    return answer;
  },
});
