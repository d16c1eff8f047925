// First-level regions people write after a place name ("Paris, TX", "Perth, Western Australia"),
// as GeoNames' admin1 codes, which the gazetteer stores. US codes are the postal abbreviations
// themselves; Canada, Australia and the United Kingdom use GeoNames' own codes (admin1CodesASCII),
// checked against the gazetteer's capitals in regions.test.ts.

export interface Region {
  country: string;
  adminCode: string;
  name: string;
  /** The postal abbreviation people write ("TX", "ON", "NSW"), where there is one. */
  abbreviation?: string;
}

const US_STATES: Readonly<Record<string, string>> = {
  AL: 'Alabama', AK: 'Alaska', AZ: 'Arizona', AR: 'Arkansas', CA: 'California', CO: 'Colorado', CT: 'Connecticut',
  DE: 'Delaware', DC: 'District of Columbia', FL: 'Florida', GA: 'Georgia', HI: 'Hawaii', ID: 'Idaho', IL: 'Illinois',
  IN: 'Indiana', IA: 'Iowa', KS: 'Kansas', KY: 'Kentucky', LA: 'Louisiana', ME: 'Maine', MD: 'Maryland',
  MA: 'Massachusetts', MI: 'Michigan', MN: 'Minnesota', MS: 'Mississippi', MO: 'Missouri', MT: 'Montana',
  NE: 'Nebraska', NV: 'Nevada', NH: 'New Hampshire', NJ: 'New Jersey', NM: 'New Mexico', NY: 'New York',
  NC: 'North Carolina', ND: 'North Dakota', OH: 'Ohio', OK: 'Oklahoma', OR: 'Oregon', PA: 'Pennsylvania',
  RI: 'Rhode Island', SC: 'South Carolina', SD: 'South Dakota', TN: 'Tennessee', TX: 'Texas', UT: 'Utah',
  VT: 'Vermont', VA: 'Virginia', WA: 'Washington', WV: 'West Virginia', WI: 'Wisconsin', WY: 'Wyoming',
};

/** [GeoNames code, name, postal abbreviation] */
const CANADA: readonly (readonly [string, string, string])[] = [
  ['01', 'Alberta', 'AB'], ['02', 'British Columbia', 'BC'], ['03', 'Manitoba', 'MB'], ['04', 'New Brunswick', 'NB'],
  ['05', 'Newfoundland and Labrador', 'NL'], ['07', 'Nova Scotia', 'NS'], ['08', 'Ontario', 'ON'],
  ['09', 'Prince Edward Island', 'PE'], ['10', 'Quebec', 'QC'], ['11', 'Saskatchewan', 'SK'], ['12', 'Yukon', 'YT'],
  ['13', 'Northwest Territories', 'NT'], ['14', 'Nunavut', 'NU'],
];

const AUSTRALIA: readonly (readonly [string, string, string])[] = [
  ['01', 'Australian Capital Territory', 'ACT'], ['02', 'New South Wales', 'NSW'], ['03', 'Northern Territory', 'NT'],
  ['04', 'Queensland', 'QLD'], ['05', 'South Australia', 'SA'], ['06', 'Tasmania', 'TAS'], ['07', 'Victoria', 'VIC'],
  ['08', 'Western Australia', 'WA'],
];

const UNITED_KINGDOM: readonly (readonly [string, string])[] = [
  ['ENG', 'England'], ['SCT', 'Scotland'], ['WLS', 'Wales'], ['NIR', 'Northern Ireland'],
];

export const regions: readonly Region[] = [
  ...Object.entries(US_STATES).map(([code, name]) => ({ country: 'US', adminCode: code, name, abbreviation: code })),
  ...CANADA.map(([code, name, abbreviation]) => ({ country: 'CA', adminCode: code, name, abbreviation })),
  ...AUSTRALIA.map(([code, name, abbreviation]) => ({ country: 'AU', adminCode: code, name, abbreviation })),
  ...UNITED_KINGDOM.map(([code, name]) => ({ country: 'GB', adminCode: code, name })),
];
