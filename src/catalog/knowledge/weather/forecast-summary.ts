// What the weather tool says about MET's forecast: current conditions, five local days, the units
// every number is in, and which forecast it came from. Pure: the forecast, the zone and now in.
import type { MetForecast } from '../../../upstream/providers/metno.ts';
import { currentConditions, stepAt, type CurrentConditions } from './current-conditions.ts';
import { dailyForecast, type DailyForecast } from './daily-forecast.ts';

export const FORECAST_DAYS = 5;

export interface ForecastUnits {
  temperature: string;
  windSpeed: string;
  windSpeedKmh: 'km/h';
  windFromDirection: string;
  relativeHumidity: string;
  pressureAtSeaLevel: string;
  cloudCover: string;
  precipitation: string;
}

export interface ForecastSummary {
  /** The IANA zone local dates and times are in. */
  timeZone: string;
  /** The point MET forecast for; altitude in metres above sea level. */
  forecastPoint: { latitude: number; longitude: number; altitudeM: number | null };
  /** When MET last updated this forecast. */
  updatedAt: string;
  units: ForecastUnits;
  current: CurrentConditions;
  daily: DailyForecast[];
  /** Things the reader should know about this answer (a deprecated product version). */
  notices?: string[];
}

const DEPRECATED_NOTICE =
  'MET Norway answered HTTP 203: this Locationforecast version is deprecated or in beta; the data is valid, but the gateway should move to the current version before MET retires this one.';

export function summariseForecast(forecast: MetForecast, timeZone: string, now: Date): ForecastSummary {
  const at = now.getTime();
  const step = stepAt(forecast.timeseries, at);
  // The parser refuses a forecast without time steps.
  if (!step) throw new Error('a MET forecast without time steps reached the summary');
  return {
    timeZone,
    forecastPoint: { latitude: forecast.latitude, longitude: forecast.longitude, altitudeM: forecast.altitudeM },
    updatedAt: forecast.updatedAt,
    units: unitsOf(forecast.units),
    current: currentConditions(step, timeZone),
    daily: dailyForecast(forecast.timeseries, timeZone, at, FORECAST_DAYS),
    ...(forecast.deprecated ? { notices: [DEPRECATED_NOTICE] } : {}),
  };
}

/** MET's stated units; where it states none, the ones its data model documents. */
function unitsOf(units: Readonly<Record<string, string>>): ForecastUnits {
  return {
    temperature: units.air_temperature ?? 'celsius',
    windSpeed: units.wind_speed ?? 'm/s',
    windSpeedKmh: 'km/h',
    windFromDirection: units.wind_from_direction ?? 'degrees',
    relativeHumidity: units.relative_humidity ?? '%',
    pressureAtSeaLevel: units.air_pressure_at_sea_level ?? 'hPa',
    cloudCover: units.cloud_area_fraction ?? '%',
    precipitation: units.precipitation_amount ?? 'mm',
  };
}
