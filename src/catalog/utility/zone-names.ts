// From what a caller types to an IANA time zone: an IANA name or alias ("Asia/Tokyo", "US/Pacific",
// "Japan"), the city of a zone's name ("Tokyo", "New York"), or any of the ~7,300 cities of the
// city-timezones dataset (Natural Earth populated places, with population), optionally narrowed
// by country or state ("Portland, Maine", "London, Canada"). A bare city name takes the most
// populous city of that name. Unknown input gets the closest names by edit distance.
import { cityMapping } from 'city-timezones';
import { editDistance } from './edit-distance.ts';

export interface ResolvedZone {
  /** Canonical IANA name, as tzdata spells it today. */
  zone: string;
  matchedBy: 'iana_name' | 'city';
  city?: { name: string; country?: string; region?: string; population?: number };
}

// Node's ICU reports some zones by their older CLDR identifiers; these are today's IANA names for
// them (from CLDR's timezone.xml "iana" attributes).
const ICU_TO_IANA: Readonly<Record<string, string>> = {
  'Africa/Asmera': 'Africa/Asmara',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Coral_Harbour': 'America/Atikokan',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Godthab': 'America/Nuuk',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Louisville': 'America/Kentucky/Louisville',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
};

/** Other names of cities, folded, to the name the dataset uses. */
const CITY_ALIASES: Readonly<Record<string, string>> = {
  'washington': 'washington dc',
  'nyc': 'new york',
  'new york city': 'new york',
  'bombay': 'mumbai',
  'peking': 'beijing',
  'kiev': 'kyiv',
  'tel aviv': 'tel aviv yafo',
  'bangalore': 'bengaluru',
  'madras': 'chennai',
  'calcutta': 'kolkata',
  'saigon': 'ho chi minh city',
};

/** Country names callers use, folded, to ISO 3166 alpha-2 codes. */
const COUNTRY_ALIASES: Readonly<Record<string, string>> = {
  uk: 'gb', 'great britain': 'gb', britain: 'gb', england: 'gb', scotland: 'gb', wales: 'gb',
  usa: 'us', 'united states': 'us', america: 'us', uae: 'ae', korea: 'kr',
};

/** Lower case, accents and punctuation removed, "_" and "-" as spaces, "Saint" as "St". */
export function foldName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[.'’,()]/g, '')
    .replace(/[\s_-]+/g, ' ')
    .replace(/\bsaint\b/g, 'st')
    .trim();
}

function modernName(icuName: string): string {
  return ICU_TO_IANA[icuName] ?? icuName;
}

const canonicalNames = new Map<string, string | undefined>();
const MAX_REMEMBERED_NAMES = 10_000;

/** The canonical IANA name of `name` if it is an IANA zone name or alias (any case), else undefined. */
export function canonicalZoneName(name: string): string | undefined {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return undefined;
  if (canonicalNames.has(name)) return canonicalNames.get(name);
  let canonical: string | undefined;
  try {
    canonical = modernName(new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone);
  } catch {
    canonical = undefined;
  }
  // Callers choose the names, so what is remembered is bounded.
  if (canonicalNames.size < MAX_REMEMBERED_NAMES) canonicalNames.set(name, canonical);
  return canonical;
}

interface CityEntry {
  name: string;
  country: string;
  region: string;
  iso2: string;
  iso3: string;
  state: string;
  population: number;
  /** The dataset's zone name, made canonical only when the city is chosen (the index builds faster). */
  datasetZone: string;
}

interface NameIndex {
  /** Folded city of each zone name ("new york") to the zone. */
  zoneCities: Map<string, string>;
  /** Folded city names (and their ASCII spellings) to the cities, most populous first. */
  cities: Map<string, CityEntry[]>;
  /** Canonical zone names. */
  zones: string[];
}

let index: NameIndex | undefined;

function buildIndex(): NameIndex {
  const zones = [...new Set([...Intl.supportedValuesOf('timeZone').map(modernName), 'UTC'])].sort();
  const zoneCities = new Map<string, string>();
  const addZoneCity = (zoneName: string, target: string) => {
    const segments = zoneName.split('/');
    if (segments.length < 2 || segments[0] === 'Etc') return;
    const city = foldName(segments.at(-1)!);
    if (!zoneCities.has(city)) zoneCities.set(city, target);
  };
  for (const zone of zones) addZoneCity(zone, zone);
  for (const [icuName, ianaName] of Object.entries(ICU_TO_IANA)) addZoneCity(icuName, ianaName);

  const cities = new Map<string, CityEntry[]>();
  for (const record of cityMapping) {
    // A few dataset rows (Antarctic stations, some others) have no zone.
    if (!record.timezone) continue;
    const entry: CityEntry = {
      name: record.city, country: record.country, region: record.province ?? '', iso2: record.iso2 ?? '', iso3: record.iso3 ?? '',
      state: record.state_ansi ?? '', population: Math.round(record.pop ?? 0), datasetZone: record.timezone,
    };
    for (const spelling of new Set([foldName(record.city), foldName(record.city_ascii ?? record.city)])) {
      const list = cities.get(spelling) ?? [];
      list.push(entry);
      cities.set(spelling, list);
    }
  }
  for (const list of cities.values()) list.sort((a, b) => b.population - a.population);
  return { zoneCities, cities, zones };
}

function names(): NameIndex {
  index ??= buildIndex();
  return index;
}

function cityDetails(entry: CityEntry): NonNullable<ResolvedZone['city']> {
  return { name: entry.name, country: entry.country, ...(entry.region ? { region: entry.region } : {}), population: entry.population };
}

function resolvedCity(entry: CityEntry | undefined): ResolvedZone | undefined {
  const zone = entry && canonicalZoneName(entry.datasetZone);
  return entry && zone ? { zone, matchedBy: 'city', city: cityDetails(entry) } : undefined;
}

function matchesQualifier(entry: CityEntry, qualifier: string): boolean {
  const code = COUNTRY_ALIASES[qualifier] ?? qualifier;
  return (
    entry.iso2.toLowerCase() === code || entry.iso3.toLowerCase() === code || entry.state.toLowerCase() === qualifier ||
    foldName(entry.country) === qualifier || foldName(entry.region) === qualifier
  );
}

function citiesNamed(foldedCity: string): CityEntry[] {
  const { cities } = names();
  return cities.get(foldedCity) ?? cities.get(CITY_ALIASES[foldedCity] ?? '') ?? [];
}

export function resolveZone(query: string): ResolvedZone | undefined {
  const text = query.trim();
  const asZone = canonicalZoneName(text) ?? canonicalZoneName(text.replace(/\s+/g, '_'));
  if (asZone) return { zone: asZone, matchedBy: 'iana_name' };

  // "Washington, D.C." is a city's whole name; "Paris, France" a city and where it is.
  const whole = text.includes(',') ? resolvedCity(citiesNamed(foldName(text))[0]) : undefined;
  if (whole) return whole;
  const [cityPart = '', ...qualifierParts] = text.split(',');
  const city = foldName(cityPart);
  if (!city) return undefined;
  const qualifier = foldName(qualifierParts.join(' '));
  const candidates = citiesNamed(city);
  if (qualifier) {
    return resolvedCity(candidates.find((entry) => matchesQualifier(entry, qualifier)));
  }

  const zoneOfCity = names().zoneCities.get(city);
  if (zoneOfCity) {
    // The zone named after the city; the dataset's city of that zone, if any, says which country.
    const sameCity = candidates.find((entry) => canonicalZoneName(entry.datasetZone) === zoneOfCity);
    return { zone: zoneOfCity, matchedBy: 'city', city: sameCity ? cityDetails(sameCity) : { name: cityPart.trim() } };
  }
  return resolvedCity(candidates[0]);
}

interface Suggestion {
  label: () => string;
  distance: number;
  population: number;
}

/**
 * Up to `limit` names close to `query`: IANA names when it looks like one ("Europe/Pariss"),
 * city names ("Pariss" -> "Paris, France (Europe/Paris)") otherwise, nearest first, then the
 * most populous.
 */
export function suggestZones(query: string, limit = 5): string[] {
  const { zones, cities, zoneCities } = names();
  const text = query.trim();
  const found: Suggestion[] = [];
  if (text.includes('/')) {
    const folded = text.toLowerCase();
    const budget = Math.max(2, Math.floor(folded.length / 4));
    for (const zone of zones) {
      const distance = editDistance(folded, zone.toLowerCase(), budget);
      if (distance <= budget) found.push({ label: () => zone, distance, population: 0 });
    }
  } else {
    const folded = foldName(text.split(',')[0] ?? '');
    const budget = Math.max(1, Math.min(3, Math.floor(folded.length / 3)));
    for (const [name, entries] of cities) {
      const distance = name.startsWith(folded) && folded.length >= 4 ? 1 : editDistance(folded, name, budget);
      if (distance > budget) continue;
      const top = entries[0]!;
      const label = () => `${top.name}, ${top.country} (${canonicalZoneName(top.datasetZone) ?? top.datasetZone})`;
      found.push({ label, distance, population: top.population });
    }
    for (const [name, zone] of zoneCities) {
      const distance = editDistance(folded, name, budget);
      if (distance <= budget && !cities.has(name)) found.push({ label: () => zone, distance, population: 0 });
    }
  }
  found.sort((a, b) => a.distance - b.distance || b.population - a.population);
  const labels = new Set<string>();
  for (const suggestion of found) {
    if (labels.size >= limit) break;
    labels.add(suggestion.label());
  }
  return [...labels];
}
