// Countries offline (country-coder: OpenStreetMap-derived borders, territorial waters included).
import { feature } from '@rapideditor/country-coder';

export interface Country {
  /** ISO 3166-1 alpha-2. */
  code: string;
  /** ISO 3166-1 alpha-3. */
  code3: string;
  name: string;
}

/** The country at a point; undefined at sea, outside any country's waters. */
export function countryAt(latitude: number, longitude: number): Country | undefined {
  return countryOf(feature([longitude, latitude], { level: 'country' }));
}

/** A country by its ISO alpha-2 or alpha-3 code ("CH", "che"). */
export function countryByCode(code: string): Country | undefined {
  if (!/^[A-Za-z]{2,3}$/.test(code)) return undefined;
  return countryOf(feature(code.toUpperCase(), { level: 'country' }));
}

function countryOf(found: ReturnType<typeof feature>): Country | undefined {
  const props = found?.properties;
  if (!props?.iso1A2 || !props.iso1A3 || !props.nameEn) return undefined;
  return { code: props.iso1A2, code3: props.iso1A3, name: props.nameEn };
}
