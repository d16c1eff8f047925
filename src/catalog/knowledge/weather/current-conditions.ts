// Current conditions: MET's time step at or just before now (else the first one, when the whole
// forecast lies ahead), read as it stands, with feels-like and the wind's compass point added.
import type { MetTimeStep } from '../../../upstream/providers/metno.ts';
import { isoInZone } from '../../utility/zoned-time.ts';
import { feelsLike, type FeelsLike } from './feels-like.ts';
import { conditionOf, type Condition } from './symbol-codes.ts';

export interface CurrentConditions {
  /** The time step these values are for, UTC, and the same instant on the location's clock. */
  time: string;
  localTime: string;
  temperature: number | null;
  feelsLike: FeelsLike | null;
  windSpeed: number | null;
  windSpeedKmh: number | null;
  /** Where the wind comes from: 0 north, 90 east. */
  windFromDirection: number | null;
  windFromCompass: string | null;
  relativeHumidity: number | null;
  pressureAtSeaLevel: number | null;
  cloudCover: number | null;
  /** Precipitation expected over the next hour (or the next 6 where the series is 6-hourly). */
  precipitation: { amount: number; hours: 1 | 6 } | null;
  condition: Condition | null;
}

const COMPASS = ['N', 'NNE', 'NE', 'ENE', 'E', 'ESE', 'SE', 'SSE', 'S', 'SSW', 'SW', 'WSW', 'W', 'WNW', 'NW', 'NNW'] as const;

/** The step describing `now`: the last one at or before it, else the first. */
export function stepAt(timeseries: readonly MetTimeStep[], now: number): MetTimeStep | undefined {
  let chosen = timeseries[0];
  for (const step of timeseries) {
    if (step.epochMs > now) break;
    chosen = step;
  }
  return chosen;
}

export function currentConditions(step: MetTimeStep, timeZone: string): CurrentConditions {
  const { airTemperature, windSpeed, windFromDirection, relativeHumidity, airPressureAtSeaLevel, cloudAreaFraction } = step.instant;
  const period = step.next1Hours ?? step.next6Hours;
  const hours = step.next1Hours ? 1 : 6;
  const amount = period?.precipitationAmount;
  const symbol = step.next1Hours?.symbolCode ?? step.next6Hours?.symbolCode;
  return {
    time: step.time,
    localTime: isoInZone(timeZone, step.epochMs),
    temperature: airTemperature ?? null,
    feelsLike: airTemperature === undefined ? null : feelsLike(airTemperature, windSpeed, relativeHumidity),
    windSpeed: windSpeed ?? null,
    windSpeedKmh: windSpeed === undefined ? null : Math.round(windSpeed * 36) / 10,
    windFromDirection: windFromDirection ?? null,
    windFromCompass: windFromDirection === undefined ? null : compassPoint(windFromDirection),
    relativeHumidity: relativeHumidity ?? null,
    pressureAtSeaLevel: airPressureAtSeaLevel ?? null,
    cloudCover: cloudAreaFraction ?? null,
    precipitation: amount === undefined ? null : { amount, hours },
    condition: symbol ? conditionOf(symbol) : null,
  };
}

/** One of 16 points, each 22.5° wide and centred on its bearing (N covers 348.75-11.25). */
export function compassPoint(degrees: number): string {
  const index = Math.round((((degrees % 360) + 360) % 360) / 22.5) % 16;
  return COMPASS[index]!;
}
