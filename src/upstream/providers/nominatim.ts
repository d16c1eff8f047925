// OpenStreetMap's Nominatim, format jsonv2 (https://nominatim.org/release-docs/latest/api/Output/):
// `GET /reverse?format=jsonv2&lat&lon&zoom=18&addressdetails=1` answers one place object
// { place_id, licence, osm_type, osm_id, lat, lon (strings), category, type, place_rank, importance,
//   addresstype, name, display_name, address{...}, boundingbox[4 strings] }, or HTTP 200 with
// {"error":"Unable to geocode"} when nothing is there (open water, no data);
// `GET /search?q&format=jsonv2&limit&addressdetails=1` answers an array of such objects, [] for none.
// Bad parameters are a non-2xx status with {"error":{"code":400,"message":"..."}} (Nominatim 4.3+).
// Older servers send place_id, osm_id, place_rank and importance as strings; both are read.
import type { RawResponse } from '../http/http-types.ts';
import type { ProviderAnswer, ProviderCaller } from '../provider-call.ts';
import { defineProvider } from '../provider.ts';
import { badAnswer } from '../upstream-errors.ts';
import { bodyText, isJsonObject, stringMember, type JsonObject } from './response-body.ts';

export const nominatim = defineProvider({
  id: 'nominatim',
  name: 'Nominatim (OpenStreetMap)',
  baseUrl: { env: 'TOOLGATE_NOMINATIM_URL', default: 'https://nominatim.openstreetmap.org' },
  timeoutMs: 8_000,
  maxBytes: 512 * 1024,
  // The public server's usage policy: an absolute maximum of 1 request per second, single thread,
  // for the whole application. A self-hosted instance may lift this.
  rateLimit: { requests: 1, perMs: 1_000, concurrency: 1, maxQueueMs: 5_000 },
  cacheTtlMs: 7 * 24 * 60 * 60_000,
  cacheReason:
    "Nominatim's usage policy asks clients to cache; the address at a point and the places a name matches change on the scale of map edits, so a week old is fresh enough.",
  staleForMs: 30 * 24 * 60 * 60_000,
  attribution: '© OpenStreetMap contributors, ODbL 1.0 (Nominatim)',
  termsUrl: 'https://operations.osmfoundation.org/policies/nominatim/',
  docsUrl: 'https://nominatim.org/release-docs/latest/api/Output/',
});

/** The answer Nominatim gives (HTTP 200) when it has no place at a point. */
const NOTHING_HERE = 'Unable to geocode';
/** Nominatim's search accepts `limit` up to 40. */
const MAX_SEARCH_LIMIT = 40;
/** Parameter errors come back with this status and a JSON error object; read it for the message. */
const PARAMETER_ERROR_STATUSES = [400] as const;

export interface OsmObject {
  type: 'node' | 'way' | 'relation';
  id: number;
  /** The object on openstreetmap.org. */
  url: string;
}

export interface StreetAddress {
  houseNumber?: string;
  road?: string;
  neighbourhood?: string;
  suburb?: string;
  /** The first of city, town, village, hamlet. */
  locality?: string;
  county?: string;
  state?: string;
  /** ISO 3166-2 code of the state ("ISO3166-2-lvl4"): "IT-45". */
  stateCode?: string;
  postcode?: string;
  country?: string;
  /** ISO 3166-1 alpha-2, upper case. */
  countryCode?: string;
}

export type ReverseGeocode =
  | {
      found: true;
      displayName: string;
      /** The place's own name; absent when it has none (a plain house). */
      name?: string;
      category: string;
      type: string;
      /** Absent for places that are not OSM objects (postcode areas). */
      osm: OsmObject | null;
      latitude: number;
      longitude: number;
      address: StreetAddress;
      /** Every address part Nominatim gave, keys as given. */
      rawAddress: Readonly<Record<string, string>>;
    }
  | { found: false; reason: string };

export interface PlaceMatch {
  name?: string;
  displayName: string;
  latitude: number;
  longitude: number;
  category: string;
  type: string;
  importance: number | null;
  /** ISO 3166-1 alpha-2, upper case. */
  countryCode?: string;
  osm: OsmObject | null;
}

/** The street address at a point (zoom 18: house or building level). */
export async function reverseGeocode(
  caller: ProviderCaller,
  point: { latitude: number; longitude: number },
  signal: AbortSignal,
): Promise<ProviderAnswer<ReverseGeocode>> {
  const request = {
    path: '/reverse',
    // Six decimals is about 11 cm, finer than any address; rounding makes the same point asked
    // with noise in the last digits one URL, so it is one cache entry and one request under the 1 rps limit.
    query: { format: 'jsonv2', lat: roundTo6(point.latitude), lon: roundTo6(point.longitude), zoom: 18, addressdetails: 1 },
    acceptStatuses: PARAMETER_ERROR_STATUSES,
  };
  return caller.call(nominatim, request, parseReverse, signal);
}

/** Places matching free text, best first; an empty list when none does. */
export async function searchPlace(caller: ProviderCaller, query: string, signal: AbortSignal, limit = 5): Promise<ProviderAnswer<PlaceMatch[]>> {
  const request = {
    path: '/search',
    query: { q: query.trim(), format: 'jsonv2', limit: Math.min(MAX_SEARCH_LIMIT, Math.max(1, Math.floor(limit) || 1)), addressdetails: 1 },
    acceptStatuses: PARAMETER_ERROR_STATUSES,
  };
  return caller.call(nominatim, request, parseSearch, signal);
}

export function parseReverse(response: RawResponse): ReverseGeocode {
  const body = jsonBodyOf(response);
  if (!isJsonObject(body)) throw badAnswer(nominatim.name, 'its reverse answer is not a JSON object', response.status);
  if ('error' in body) {
    if (body.error === NOTHING_HERE && response.status === 200) return { found: false, reason: NOTHING_HERE };
    throw refusal(body, response.status);
  }
  const place = placeOf(body);
  const rawAddress = addressPartsOf(body.address);
  return {
    found: true,
    displayName: place.displayName,
    ...(place.name ? { name: place.name } : {}),
    category: place.category,
    type: place.type,
    osm: place.osm,
    latitude: place.latitude,
    longitude: place.longitude,
    address: streetAddressOf(rawAddress),
    rawAddress,
  };
}

export function parseSearch(response: RawResponse): PlaceMatch[] {
  const body = jsonBodyOf(response);
  if (isJsonObject(body) && 'error' in body) throw refusal(body, response.status);
  if (!Array.isArray(body)) throw badAnswer(nominatim.name, 'its search answer is not a JSON array of places', response.status);
  return body.map((entry: unknown) => {
    if (!isJsonObject(entry)) throw badAnswer(nominatim.name, 'a search result is not an object');
    const place = placeOf(entry);
    const countryCode = stringMember(addressPartsOf(entry.address), 'country_code');
    return {
      ...(place.name ? { name: place.name } : {}),
      displayName: place.displayName,
      latitude: place.latitude,
      longitude: place.longitude,
      category: place.category,
      type: place.type,
      importance: numberOf(entry.importance) ?? null,
      ...(countryCode ? { countryCode: countryCode.toUpperCase() } : {}),
      osm: place.osm,
    };
  });
}

interface PlaceCore {
  displayName: string;
  name?: string;
  category: string;
  type: string;
  latitude: number;
  longitude: number;
  osm: OsmObject | null;
}

function placeOf(object: JsonObject): PlaceCore {
  const displayName = stringMember(object, 'display_name');
  const category = stringMember(object, 'category');
  const type = stringMember(object, 'type');
  const latitude = numberOf(object.lat);
  const longitude = numberOf(object.lon);
  if (!displayName || !category || !type) throw badAnswer(nominatim.name, 'a place has no display_name, category or type (not the jsonv2 format)');
  if (latitude === undefined || longitude === undefined || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) {
    throw badAnswer(nominatim.name, 'a place has no usable lat and lon');
  }
  const name = stringMember(object, 'name');
  return { displayName, ...(name ? { name } : {}), category, type, latitude, longitude, osm: osmObjectOf(object) };
}

function osmObjectOf(object: JsonObject): OsmObject | null {
  const type = object.osm_type;
  const id = numberOf(object.osm_id);
  if ((type !== 'node' && type !== 'way' && type !== 'relation') || id === undefined || !Number.isSafeInteger(id) || id <= 0) return null;
  return { type, id, url: `https://www.openstreetmap.org/${type}/${id}` };
}

/** The address parts that are strings (all of them, in Nominatim's answers); {} when there is no address. */
function addressPartsOf(value: unknown): Readonly<Record<string, string>> {
  if (!isJsonObject(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

function streetAddressOf(parts: Readonly<Record<string, string>>): StreetAddress {
  const countryCode = parts.country_code?.toUpperCase();
  const address: StreetAddress = {
    houseNumber: parts.house_number,
    road: parts.road,
    neighbourhood: parts.neighbourhood,
    suburb: parts.suburb,
    locality: parts.city ?? parts.town ?? parts.village ?? parts.hamlet,
    county: parts.county,
    state: parts.state,
    stateCode: parts['ISO3166-2-lvl4'],
    postcode: parts.postcode,
    country: parts.country,
    countryCode,
  };
  return Object.fromEntries(Object.entries(address).filter(([, part]) => part !== undefined && part !== '')) as StreetAddress;
}

/** A refusal in a JSON error object: {"error":"..."} or {"error":{"code":400,"message":"..."}}. */
function refusal(body: JsonObject, status: number) {
  const error = body.error;
  const message = typeof error === 'string' ? error : isJsonObject(error) ? stringMember(error, 'message') : undefined;
  return badAnswer(nominatim.name, `it refused the request (HTTP ${status}${message ? `: ${message}` : ''})`, status);
}

/** The body parsed as JSON (object or array), or a bad answer saying what came instead (the policy's block page is HTML). */
function jsonBodyOf(response: RawResponse): unknown {
  try {
    return JSON.parse(bodyText(response));
  } catch {
    const contentType = response.headers['content-type'] ?? 'no content type';
    throw badAnswer(nominatim.name, `its answer is not JSON (${contentType}, HTTP ${response.status})`, response.status);
  }
}

/** A number Nominatim may send as a JSON number or as a numeric string. */
function numberOf(value: unknown): number | undefined {
  const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(number) ? number : undefined;
}

function roundTo6(degrees: number): number {
  return Math.round(degrees * 1e6) / 1e6;
}
