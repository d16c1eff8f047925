// MET Norway's Locationforecast 2.0, compact flavour (https://docs.api.met.no/doc/ForecastJSON):
// `GET /weatherapi/locationforecast/2.0/compact?lat=..&lon=..` answers a GeoJSON Feature
// { geometry{type:"Point", coordinates[lon, lat, altitude]}, properties{meta{updated_at, units{...}},
//   timeseries[{time, data{instant{details{air_temperature, ...}}, next_1_hours{summary{symbol_code},
//   details{precipitation_amount}}, next_6_hours{...}, next_12_hours{summary{symbol_code}}}}]} }.
// The series is sorted, in UTC, hourly at first and 6-hourly later; a step never carries a period
// shorter than the distance to the next step. Statuses (docs.api.met.no/doc/StatusCodes): 203 is
// data from a deprecated or beta product version, 403 a missing or generic User-Agent (or a ban),
// 404 no data, 422 a location the product does not cover, 429 throttling (the layer's 503).
import type { RawResponse } from '../http/http-types.ts';
import type { ProviderAnswer, ProviderCaller } from '../provider-call.ts';
import { defineProvider } from '../provider.ts';
import { badAnswer } from '../upstream-errors.ts';
import { isJsonObject, jsonObjectOf, stringMember, type JsonObject } from './response-body.ts';

export const metno = defineProvider({
  id: 'metno',
  name: 'MET Norway Locationforecast',
  baseUrl: { env: 'TOOLGATE_METNO_URL', default: 'https://api.met.no' },
  timeoutMs: 8_000,
  maxBytes: 2 * 1024 * 1024,
  // MET's terms: over 20 requests per second for the whole application needs an agreement. This
  // limit is per process; several instances behind one User-Agent share MET's 20.
  rateLimit: { requests: 10, perMs: 1_000, concurrency: 8, maxQueueMs: 2_000 },
  // Each answer is kept until its own Expires (freshFor below); this is the fallback.
  cacheTtlMs: 30 * 60_000,
  cacheReason:
    "MET's terms forbid asking again before the Expires header's time, so each forecast is served from the cache until then (between a minute and six hours); 30 minutes when an answer has no Expires.",
  staleForMs: 6 * 60 * 60_000,
  attribution:
    'Weather forecast data from MET Norway (the Norwegian Meteorological Institute), CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/); daily figures and feels-like are computed by this gateway from it',
  termsUrl: 'https://docs.api.met.no/doc/TermsOfService',
  docsUrl: 'https://docs.api.met.no/doc/ForecastJSON',
});

const COMPACT_PATH = '/weatherapi/locationforecast/2.0/compact';
/** Statuses read for what MET means by them, instead of the layer's bare "answered HTTP n". */
const EXPLAINED_STATUSES = [403, 404, 422] as const;
/** MET's terms: no more than 4 decimals (more is refused, and defeats its caching). */
const COORDINATE_DECIMALS = 4;
const MIN_FRESH_MS = 60_000;
const MAX_FRESH_MS = 6 * 60 * 60_000;

/** The units this client computes with (feels-like takes °C and m/s); MET promises to announce a change. */
const REQUIRED_UNITS: Readonly<Record<string, string>> = { air_temperature: 'celsius', wind_speed: 'm/s' };

export interface MetInstant {
  airTemperature?: number;
  airPressureAtSeaLevel?: number;
  cloudAreaFraction?: number;
  relativeHumidity?: number;
  windFromDirection?: number;
  windSpeed?: number;
}

export interface MetPeriod {
  symbolCode?: string;
  precipitationAmount?: number;
}

export interface MetTimeStep {
  /** ISO 8601 UTC, as MET writes it. */
  time: string;
  epochMs: number;
  instant: MetInstant;
  next1Hours?: MetPeriod;
  next6Hours?: MetPeriod;
  next12Hours?: MetPeriod;
}

export interface MetForecast {
  /** The point MET forecast for (its grid may move it slightly from the asked one). */
  latitude: number;
  longitude: number;
  altitudeM: number | null;
  updatedAt: string;
  /** MET's meta.units, as given: "celsius", "m/s", "hPa", "%", "mm", "degrees". */
  units: Readonly<Record<string, string>>;
  timeseries: MetTimeStep[];
  /** HTTP 203: the product version is deprecated or in beta; the data is still served. */
  deprecated: boolean;
}

/** The compact forecast at a point; coordinates are rounded to MET's 4 decimals. */
export async function fetchCompactForecast(
  caller: ProviderCaller,
  latitude: number,
  longitude: number,
  signal: AbortSignal,
): Promise<ProviderAnswer<MetForecast>> {
  return caller.call(
    metno,
    {
      path: COMPACT_PATH,
      query: { lat: fourDecimals(latitude), lon: fourDecimals(longitude) },
      acceptStatuses: EXPLAINED_STATUSES,
      freshFor: metFreshFor,
    },
    parseCompactForecast,
    signal,
  );
}

/** "59.9139", "-74", "0": at most 4 decimals, no trailing zeros, never "-0" or an exponent. */
export function fourDecimals(value: number): string {
  const rounded = Number(value.toFixed(COORDINATE_DECIMALS));
  return rounded === 0 ? '0' : String(rounded);
}

/**
 * How long MET lets us keep this answer: its Expires less its Date (both on MET's clock, so our
 * own clock's drift does not matter), less the Age a cache in front of it has already spent,
 * within a minute and six hours. No usable Expires: undefined (the provider's 30 minutes).
 */
export function metFreshFor(response: RawResponse, now: number): number | undefined {
  const expires = Date.parse(response.headers.expires ?? '');
  if (Number.isNaN(expires)) return undefined;
  const date = Date.parse(response.headers.date ?? '');
  const age = Number(response.headers.age ?? '0');
  const lifetime = expires - (Number.isNaN(date) ? now : date) - (Number.isFinite(age) && age > 0 ? age * 1000 : 0);
  return Math.min(MAX_FRESH_MS, Math.max(MIN_FRESH_MS, lifetime));
}

export function parseCompactForecast(response: RawResponse): MetForecast {
  refuseExplainedStatus(response.status);
  const body = jsonObjectOf(response, metno.name);
  const geometry = body.geometry;
  const properties = body.properties;
  if (body.type !== 'Feature' || !isJsonObject(geometry) || !isJsonObject(properties)) {
    throw badAnswer(metno.name, 'its answer is not the forecast GeoJSON Feature (no geometry and properties)', response.status);
  }
  const [longitude, latitude, altitude] = Array.isArray(geometry.coordinates) ? (geometry.coordinates as unknown[]) : [];
  if (!isNumber(latitude) || !isNumber(longitude)) throw badAnswer(metno.name, 'its geometry has no [longitude, latitude] point');

  const meta = properties.meta;
  const updatedAt = isJsonObject(meta) ? stringMember(meta, 'updated_at') : undefined;
  if (!isJsonObject(meta) || !updatedAt || Number.isNaN(Date.parse(updatedAt))) throw badAnswer(metno.name, 'its forecast has no meta.updated_at time');
  const units = unitsOf(meta.units);

  if (!Array.isArray(properties.timeseries)) throw badAnswer(metno.name, 'its forecast has no timeseries list');
  const timeseries = properties.timeseries.map(timeStepOf).sort((a, b) => a.epochMs - b.epochMs);
  if (timeseries.length === 0) throw badAnswer(metno.name, 'its forecast has no time steps');

  return {
    latitude,
    longitude,
    altitudeM: isNumber(altitude) ? altitude : null,
    updatedAt,
    units,
    timeseries,
    deprecated: response.status === 203,
  };
}

function refuseExplainedStatus(status: number): void {
  if (status === 403) {
    throw badAnswer(
      metno.name,
      'it refused this gateway (HTTP 403): MET blocks a missing or generic User-Agent, so the operator should set TOOLGATE_CONTACT to a contact address or site, or the gateway has been blocked under its terms',
      status,
    );
  }
  if (status === 404) throw badAnswer(metno.name, 'it has no forecast data to offer for this point right now (HTTP 404)', status);
  if (status === 422) throw badAnswer(metno.name, 'it cannot forecast for this location (HTTP 422: outside the area the product covers)', status);
}

function unitsOf(value: unknown): Readonly<Record<string, string>> {
  if (!isJsonObject(value)) throw badAnswer(metno.name, 'its forecast has no meta.units');
  const units: Record<string, string> = {};
  for (const [name, unit] of Object.entries(value)) if (typeof unit === 'string') units[name] = unit;
  for (const [name, expected] of Object.entries(REQUIRED_UNITS)) {
    const given = units[name];
    if (given !== undefined && given !== expected) throw badAnswer(metno.name, `its ${name} is now in "${given}", not "${expected}" as this client computes with`);
  }
  return units;
}

function timeStepOf(value: unknown, index: number): MetTimeStep {
  const entry = isJsonObject(value) ? value : {};
  const time = stringMember(entry, 'time');
  const epochMs = time ? Date.parse(time) : NaN;
  const data = entry.data;
  const instant = isJsonObject(data) && isJsonObject(data.instant) ? data.instant.details : undefined;
  if (!time || Number.isNaN(epochMs) || !isJsonObject(data) || !isJsonObject(instant)) {
    throw badAnswer(metno.name, `time step ${index} lacks a time or data.instant.details`);
  }
  return {
    time,
    epochMs,
    instant: {
      ...numberAt(instant, 'air_temperature', 'airTemperature'),
      ...numberAt(instant, 'air_pressure_at_sea_level', 'airPressureAtSeaLevel'),
      ...numberAt(instant, 'cloud_area_fraction', 'cloudAreaFraction'),
      ...numberAt(instant, 'relative_humidity', 'relativeHumidity'),
      ...numberAt(instant, 'wind_from_direction', 'windFromDirection'),
      ...numberAt(instant, 'wind_speed', 'windSpeed'),
    },
    ...periodAt(data, 'next_1_hours', 'next1Hours'),
    ...periodAt(data, 'next_6_hours', 'next6Hours'),
    ...periodAt(data, 'next_12_hours', 'next12Hours'),
  };
}

/** A variable MET sends as a number; absent when it is missing (not every area has every variable). */
function numberAt<K extends string>(details: JsonObject, name: string, key: K): Partial<Record<K, number>> {
  const value = details[name];
  return isNumber(value) ? ({ [key]: value } as Partial<Record<K, number>>) : {};
}

function periodAt<K extends string>(data: JsonObject, name: string, key: K): Partial<Record<K, MetPeriod>> {
  const period = data[name];
  if (!isJsonObject(period)) return {};
  const symbolCode = isJsonObject(period.summary) ? stringMember(period.summary, 'symbol_code') : undefined;
  const amount = isJsonObject(period.details) ? period.details.precipitation_amount : undefined;
  const value: MetPeriod = { ...(symbolCode ? { symbolCode } : {}), ...(isNumber(amount) ? { precipitationAmount: amount } : {}) };
  return { [key]: value } as Partial<Record<K, MetPeriod>>;
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
