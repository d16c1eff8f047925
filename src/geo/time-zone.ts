// The IANA time zone at a point, offline (geo-tz: timezone-boundary-builder's polygons, every zone
// kept apart, so Oslo is Europe/Oslo rather than a zone that merely keeps the same clock). At sea
// it gives the nautical zone, e.g. "Etc/GMT+2".
import { find } from 'geo-tz/all';

export function timeZoneAt(latitude: number, longitude: number): string {
  return find(latitude, longitude)[0] ?? nauticalZone(longitude);
}

/** The nautical time zone (15° bands), as the IANA database names it: west of Greenwich is GMT+n. */
function nauticalZone(longitude: number): string {
  const offset = Math.round(longitude / 15);
  return offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

