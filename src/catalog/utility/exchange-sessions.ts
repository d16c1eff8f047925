// Whether an exchange is open at an instant, why, and when it next opens and closes: its trading
// sessions in its own time zone, its weekends, and its holiday calendar (exchange-calendars.ts).
import type { ExchangeCalendar } from './exchange-calendars.ts';
import { HKEX_CALENDAR, LSE_CALENDAR, NYSE_CALENDAR, TSE_CALENDAR } from './exchange-calendars.ts';
import type { CalendarDate } from './zoned-time.ts';
import { addDays, instantAtWallClock, isoDate, isoInZone, wallClockAt } from './zoned-time.ts';

/** Times of a trading day in minutes after local midnight. */
interface SessionTimes {
  /** Start of the order-entry phase before the opening auction: the "pre_open" status. */
  preOpen: number;
  open: number;
  lunchBreak?: readonly [start: number, end: number];
  close: number;
}

export interface Exchange {
  id: 'NYSE' | 'LSE' | 'TSE' | 'HKEX';
  name: string;
  /** ISO 10383 market identifier code. */
  mic: string;
  zone: string;
  regular: SessionTimes;
  /** The session of a half day (an early close); absent for exchanges that have none. */
  halfDay?: SessionTimes;
  calendar: ExchangeCalendar;
}

const at = (hours: number, minutes = 0) => hours * 60 + minutes;

export const EXCHANGES: readonly Exchange[] = [
  {
    id: 'NYSE', name: 'New York Stock Exchange', mic: 'XNYS', zone: 'America/New_York',
    regular: { preOpen: at(6, 30), open: at(9, 30), close: at(16) },
    halfDay: { preOpen: at(6, 30), open: at(9, 30), close: at(13) },
    calendar: NYSE_CALENDAR,
  },
  {
    id: 'LSE', name: 'London Stock Exchange', mic: 'XLON', zone: 'Europe/London',
    regular: { preOpen: at(7, 50), open: at(8), close: at(16, 30) },
    halfDay: { preOpen: at(7, 50), open: at(8), close: at(12, 30) },
    calendar: LSE_CALENDAR,
  },
  {
    id: 'TSE', name: 'Tokyo Stock Exchange', mic: 'XTKS', zone: 'Asia/Tokyo',
    regular: { preOpen: at(8), open: at(9), lunchBreak: [at(11, 30), at(12, 30)], close: at(15, 30) },
    calendar: TSE_CALENDAR,
  },
  {
    id: 'HKEX', name: 'Hong Kong Exchanges and Clearing', mic: 'XHKG', zone: 'Asia/Hong_Kong',
    regular: { preOpen: at(9), open: at(9, 30), lunchBreak: [at(12), at(13)], close: at(16) },
    halfDay: { preOpen: at(9), open: at(9, 30), close: at(12) },
    calendar: HKEX_CALENDAR,
  },
];

export type MarketState = 'open' | 'closed' | 'pre_open' | 'lunch_break';
export type MarketReason =
  | 'regular_session' | 'half_day_session' | 'pre_open' | 'lunch_break'
  | 'weekend' | 'holiday' | 'before_open' | 'after_close' | 'early_close';

export interface MarketStatus {
  exchange: Exchange['id'];
  name: string;
  mic: string;
  timezone: string;
  /** The exchange's local time now. */
  localTime: string;
  status: MarketState;
  reason: MarketReason;
  /** The reason in words. */
  detail: string;
  /** Today's holiday or half day at this exchange, if any. */
  holiday: string | null;
  /** Today's session in exchange-local "HH:MM", or null on a weekend or holiday. */
  session: { date: string; preOpen: string; open: string; lunchBreak: { start: string; end: string } | null; close: string; halfDay: boolean } | null;
  /** When trading next starts (after a lunch break too), in the exchange's local time. */
  nextOpen: string | null;
  /** When trading next stops (at a lunch break too), in the exchange's local time. */
  nextClose: string | null;
  /** False when any weekday this answer depends on lies outside the holiday calendar's years. */
  calendarCovered: boolean;
}

type DayPlan =
  | { kind: 'weekend' }
  | { kind: 'holiday'; name: string }
  | { kind: 'trading'; session: SessionTimes; halfDay: string | null; covered: boolean };

const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
/** Longer than any run of closed days (the TSE's New Year is at most 6 with a weekend). */
const SEARCH_DAYS = 21;

function dayPlan(exchange: Exchange, date: CalendarDate & { weekday: number }): DayPlan {
  if (date.weekday === 0 || date.weekday === 6) return { kind: 'weekend' };
  const covered = exchange.calendar.years.includes(date.year);
  const key = isoDate(date);
  const holiday = exchange.calendar.holidays.get(key);
  if (holiday) return { kind: 'holiday', name: holiday };
  const halfDay = exchange.calendar.halfDays.get(key);
  if (halfDay && exchange.halfDay) return { kind: 'trading', session: exchange.halfDay, halfDay, covered };
  return { kind: 'trading', session: exchange.regular, halfDay: null, covered };
}

const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** The stretches of continuous trading of a session: one, or two around a lunch break. */
function tradingMinutes(session: SessionTimes): [number, number][] {
  if (!session.lunchBreak) return [[session.open, session.close]];
  return [[session.open, session.lunchBreak[0]], [session.lunchBreak[1], session.close]];
}

interface Moments {
  nextOpen: number | null;
  nextClose: number | null;
  covered: boolean;
}

function nextMoments(exchange: Exchange, today: CalendarDate, now: number): Moments {
  let nextOpen: number | null = null;
  let nextClose: number | null = null;
  let covered = true;
  for (let offset = 0; offset < SEARCH_DAYS && (nextOpen === null || nextClose === null); offset += 1) {
    const date = addDays(today, offset);
    const plan = dayPlan(exchange, date);
    if (plan.kind !== 'trading') continue;
    if (!plan.covered) covered = false;
    for (const [start, end] of tradingMinutes(plan.session)) {
      const opens = instantAtWallClock(exchange.zone, date, start);
      const closes = instantAtWallClock(exchange.zone, date, end);
      if (nextOpen === null && opens > now) nextOpen = opens;
      if (nextClose === null && closes > now) nextClose = closes;
    }
  }
  return { nextOpen, nextClose, covered };
}

function describeNow(exchange: Exchange, plan: DayPlan, date: CalendarDate & { weekday: number }, now: number): Pick<MarketStatus, 'status' | 'reason' | 'detail'> {
  if (plan.kind === 'weekend') return { status: 'closed', reason: 'weekend', detail: `closed: ${WEEKDAY_NAMES[date.weekday]} (weekend)` };
  if (plan.kind === 'holiday') return { status: 'closed', reason: 'holiday', detail: `closed all day: ${plan.name}` };
  const { session, halfDay } = plan;
  const instant = (minutes: number) => instantAtWallClock(exchange.zone, date, minutes);
  const early = halfDay ? ` (early close: ${halfDay})` : '';
  if (now < instant(session.preOpen)) {
    return { status: 'closed', reason: 'before_open', detail: `closed: pre-open at ${hhmm(session.preOpen)}, trading from ${hhmm(session.open)}${early}` };
  }
  if (now < instant(session.open)) {
    return { status: 'pre_open', reason: 'pre_open', detail: `pre-open (orders for the opening auction, no trading) until ${hhmm(session.open)}${early}` };
  }
  const lunch = session.lunchBreak;
  if (lunch && now >= instant(lunch[0]) && now < instant(lunch[1])) {
    return { status: 'lunch_break', reason: 'lunch_break', detail: `lunch break ${hhmm(lunch[0])}-${hhmm(lunch[1])}, trading resumes at ${hhmm(lunch[1])}` };
  }
  if (now < instant(session.close)) {
    const until = lunch && now < instant(lunch[0]) ? `${hhmm(lunch[0])} (lunch break until ${hhmm(lunch[1])})` : hhmm(session.close);
    return halfDay
      ? { status: 'open', reason: 'half_day_session', detail: `open: half day (${halfDay}), trading until ${until}` }
      : { status: 'open', reason: 'regular_session', detail: `open: trading until ${until}` };
  }
  return halfDay
    ? { status: 'closed', reason: 'early_close', detail: `closed: early close at ${hhmm(session.close)} (${halfDay})` }
    : { status: 'closed', reason: 'after_close', detail: `closed: the session ended at ${hhmm(session.close)}` };
}

export function marketStatus(exchange: Exchange, now: number): MarketStatus {
  const clock = wallClockAt(exchange.zone, now);
  const today = { year: clock.year, month: clock.month, day: clock.day, weekday: clock.weekday };
  const plan = dayPlan(exchange, today);
  const moments = nextMoments(exchange, today, now);
  const todayCovered = exchange.calendar.years.includes(today.year);
  const described = describeNow(exchange, plan, today, now);
  const covered = moments.covered && (todayCovered || plan.kind === 'weekend');
  const caveat = covered ? '' : ` (the holiday calendar covers ${exchange.calendar.years.join(' and ')} only; days outside it are assumed to be regular trading days)`;
  const session = plan.kind === 'trading' ? plan.session : undefined;
  return {
    exchange: exchange.id,
    name: exchange.name,
    mic: exchange.mic,
    timezone: exchange.zone,
    localTime: isoInZone(exchange.zone, now),
    ...described,
    detail: described.detail + caveat,
    holiday: plan.kind === 'holiday' ? plan.name : plan.kind === 'trading' ? plan.halfDay : null,
    session: session
      ? {
          date: isoDate(today),
          preOpen: hhmm(session.preOpen),
          open: hhmm(session.open),
          lunchBreak: session.lunchBreak ? { start: hhmm(session.lunchBreak[0]), end: hhmm(session.lunchBreak[1]) } : null,
          close: hhmm(session.close),
          halfDay: plan.kind === 'trading' && plan.halfDay !== null,
        }
      : null,
    nextOpen: moments.nextOpen === null ? null : isoInZone(exchange.zone, moments.nextOpen),
    nextClose: moments.nextClose === null ? null : isoInZone(exchange.zone, moments.nextClose),
    calendarCovered: covered,
  };
}
