// Daily figures by the location's own calendar date. A time step belongs to the local date of its
// time. Per day:
//   temperature and wind: min/max of the instant values of the day's steps (hourly for the first
//     two to three days, 6-hourly after; the 6-hourly days sample four instants, so their extremes
//     can miss the true ones);
//   precipitation: one pass over the series that takes, at each step not already covered, its
//     shortest period (next_1_hours where the series is hourly, next_6_hours where it is 6-hourly)
//     and moves past its end, so no hour is counted twice where the two resolutions overlap. A
//     period belongs to the day it starts in (a 6-hour period from 20:00 counts on that day);
//   condition: the symbol (variant stripped) whose periods cover most of the day's hours, ties to
//     the more severe one (severityOf), then to the earlier one.
// A day whose periods cover fewer hours than the day has (24, or 23/25 on a DST change) is partial:
// the forecast starts or ends within it.
import type { MetPeriod, MetTimeStep } from '../../../upstream/providers/metno.ts';
import { addDays, instantAtWallClock, isoDate, wallClockAt, type CalendarDate } from '../../utility/zoned-time.ts';
import { baseSymbol, conditionOf, severityOf, type Condition } from './symbol-codes.ts';

export interface DailyForecast {
  /** The local calendar date, YYYY-MM-DD. */
  date: string;
  /** How many of MET's time steps fall on this date, and the first and last of them on the local clock. */
  points: number;
  firstPoint: string;
  lastPoint: string;
  /** Hours of forecast periods starting on this date (what precipitation and condition are taken from). */
  hoursCovered: number;
  partial: boolean;
  temperatureMin: number | null;
  temperatureMax: number | null;
  precipitationSum: number | null;
  windSpeedMax: number | null;
  condition: Condition | null;
}

interface Period {
  date: string;
  hours: number;
  amount: number | undefined;
  symbolCode: string | undefined;
}

const HOUR_MS = 3_600_000;

/** Up to `days` dates from the local date of `now`; dates without a single step are left out. */
export function dailyForecast(timeseries: readonly MetTimeStep[], timeZone: string, now: number, days: number): DailyForecast[] {
  const today = calendarDate(wallClockAt(timeZone, now));
  const periods = periodsOf(timeseries, timeZone);
  const result: DailyForecast[] = [];
  for (let offset = 0; offset < days; offset += 1) {
    const day = addDays(today, offset);
    const date = isoDate(day);
    const steps = timeseries.filter((step) => localDate(step.epochMs, timeZone) === date);
    if (steps.length === 0) continue;
    const dayPeriods = periods.filter((period) => period.date === date);
    const hoursCovered = dayPeriods.reduce((sum, period) => sum + period.hours, 0);
    const amounts = dayPeriods.map((period) => period.amount).filter((amount): amount is number => amount !== undefined);
    const dominant = dominantSymbol(dayPeriods);
    result.push({
      date,
      points: steps.length,
      firstPoint: localClock(steps[0]!.epochMs, timeZone),
      lastPoint: localClock(steps.at(-1)!.epochMs, timeZone),
      hoursCovered,
      partial: hoursCovered < hoursInDay(day, timeZone),
      temperatureMin: extreme(steps, 'airTemperature', Math.min),
      temperatureMax: extreme(steps, 'airTemperature', Math.max),
      precipitationSum: amounts.length === 0 ? null : Math.round(amounts.reduce((sum, amount) => sum + amount, 0) * 100) / 100,
      windSpeedMax: extreme(steps, 'windSpeed', Math.max),
      condition: dominant ? conditionOf(dominant) : null,
    });
  }
  return result;
}

/** Each step's shortest period, skipping steps that an earlier period already covers. */
export function periodsOf(timeseries: readonly MetTimeStep[], timeZone: string): Period[] {
  const periods: Period[] = [];
  let coveredUntil = -Infinity;
  for (const step of timeseries) {
    if (step.epochMs < coveredUntil) continue;
    const [period, hours] = shortestPeriod(step);
    if (!period) continue;
    periods.push({ date: localDate(step.epochMs, timeZone), hours, amount: period.precipitationAmount, symbolCode: period.symbolCode });
    coveredUntil = step.epochMs + hours * HOUR_MS;
  }
  return periods;
}

function shortestPeriod(step: MetTimeStep): [MetPeriod | undefined, number] {
  if (step.next1Hours) return [step.next1Hours, 1];
  if (step.next6Hours) return [step.next6Hours, 6];
  return [undefined, 0];
}

function dominantSymbol(periods: readonly Period[]): string | undefined {
  const hoursBySymbol = new Map<string, number>();
  for (const period of periods) {
    if (!period.symbolCode) continue;
    const symbol = baseSymbol(period.symbolCode);
    hoursBySymbol.set(symbol, (hoursBySymbol.get(symbol) ?? 0) + period.hours);
  }
  let best: string | undefined;
  for (const [symbol, hours] of hoursBySymbol) {
    const bestHours = best === undefined ? -1 : hoursBySymbol.get(best)!;
    if (hours > bestHours || (hours === bestHours && severityOf(symbol) > severityOf(best!))) best = symbol;
  }
  return best;
}

function extreme(steps: readonly MetTimeStep[], key: 'airTemperature' | 'windSpeed', pick: (...values: number[]) => number): number | null {
  const values = steps.map((step) => step.instant[key]).filter((value): value is number => value !== undefined);
  return values.length === 0 ? null : pick(...values);
}

function hoursInDay(day: CalendarDate, timeZone: string): number {
  const start = instantAtWallClock(timeZone, day, 0);
  const end = instantAtWallClock(timeZone, addDays(day, 1), 0);
  return Math.round((end - start) / HOUR_MS);
}

function calendarDate(clock: CalendarDate): CalendarDate {
  return { year: clock.year, month: clock.month, day: clock.day };
}

function localDate(epochMs: number, timeZone: string): string {
  return isoDate(wallClockAt(timeZone, epochMs));
}

function localClock(epochMs: number, timeZone: string): string {
  const clock = wallClockAt(timeZone, epochMs);
  return `${String(clock.hour).padStart(2, '0')}:${String(clock.minute).padStart(2, '0')}`;
}
