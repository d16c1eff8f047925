// A place name resolved offline: the gazetteer's places of that name, narrowed by the country or
// region written after it, the most populous first; the others are listed so a caller can see
// when a name was ambiguous.
import { countryByCode } from './country.ts';
import { foldName } from './fold-name.ts';
import type { Gazetteer, GazetteerPlace } from './gazetteer.ts';
import { regions, type Region } from './regions.ts';

export interface ResolvedName {
  place: GazetteerPlace;
  /** Other places the words fit, most populous first (at most MAX_ALTERNATIVES). */
  alternatives: GazetteerPlace[];
  /** How many places fit in all, the chosen one included. */
  matches: number;
}

const MAX_ALTERNATIVES = 5;

/** Country names people write that are not the official English short name. */
const COUNTRY_ALIASES: Readonly<Record<string, string>> = {
  usa: 'US',
  'united states': 'US',
  america: 'US',
  uk: 'GB',
  britain: 'GB',
  'great britain': 'GB',
  holland: 'NL',
};

type Narrowing = (place: GazetteerPlace) => boolean;

/** undefined: not in the gazetteer, or narrowed by words it does not know (ask the online geocoder). */
export function resolvePlaceName(gazetteer: Gazetteer, name: string, qualifiers: readonly string[]): ResolvedName | undefined {
  const narrowings: Narrowing[] = [];
  for (const qualifier of qualifiers) {
    const narrowing = narrowingOf(qualifier, gazetteer);
    if (!narrowing) return undefined;
    narrowings.push(narrowing);
  }
  const fitting = gazetteer.named(name).filter((place) => narrowings.every((fits) => fits(place)));
  const [place, ...others] = fitting;
  if (!place) return undefined;
  return { place, alternatives: others.slice(0, MAX_ALTERNATIVES), matches: fitting.length };
}

/** What a qualifier may mean: a country (code or name) or a first-level region; several readings may apply ("CA"). */
function narrowingOf(qualifier: string, gazetteer: Gazetteer): Narrowing | undefined {
  const folded = foldName(qualifier);
  const countries = new Set<string>();
  const byCode = countryByCode(folded.replaceAll(' ', ''));
  if (byCode) countries.add(byCode.code);
  const aliased = COUNTRY_ALIASES[folded];
  if (aliased) countries.add(aliased);
  const named = countryNames(gazetteer).get(folded);
  if (named) countries.add(named);
  const inRegions = regionSpellings().get(folded) ?? [];
  if (countries.size === 0 && inRegions.length === 0) return undefined;
  return (place) => countries.has(place.countryCode) || inRegions.some((r) => r.country === place.countryCode && r.adminCode === place.adminCode);
}

let names: Map<string, string> | undefined;

/** Folded English country names of every country in the gazetteer. */
function countryNames(gazetteer: Gazetteer): ReadonlyMap<string, string> {
  if (!names) {
    names = new Map();
    for (const code of new Set(gazetteer.places.map((p) => p.countryCode))) {
      const country = countryByCode(code);
      if (country) names.set(foldName(country.name), country.code);
    }
  }
  return names;
}

let spellings: Map<string, Region[]> | undefined;

function regionSpellings(): ReadonlyMap<string, readonly Region[]> {
  if (!spellings) {
    spellings = new Map();
    for (const region of regions) {
      for (const spelling of [region.name, region.abbreviation]) {
        if (!spelling) continue;
        const key = foldName(spelling);
        spellings.set(key, [...(spellings.get(key) ?? []), region]);
      }
    }
  }
  return spellings;
}
