// Distance between two points on a spherical Earth (haversine formula). The sphere's error against
// the WGS 84 ellipsoid is under 0.5%, far below the uncertainty of IP geolocation.

/** Mean Earth radius R1 of the IUGG, in kilometres. */
export const EARTH_MEAN_RADIUS_KM = 6371.0088;

const radians = (degrees: number) => (degrees * Math.PI) / 180;

export function greatCircleKm(latitude1: number, longitude1: number, latitude2: number, longitude2: number): number {
  const dLatitude = radians(latitude2 - latitude1);
  const dLongitude = radians(longitude2 - longitude1);
  const h = Math.sin(dLatitude / 2) ** 2 + Math.cos(radians(latitude1)) * Math.cos(radians(latitude2)) * Math.sin(dLongitude / 2) ** 2;
  // min() keeps rounding from pushing h past 1 for antipodal points.
  return 2 * EARTH_MEAN_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}
