// What a caller may write as a location: "lat,lon" in decimal degrees, or a place name optionally
// followed by the country or region that narrows it ("Paris, TX", "Zürich, CH").

export type LocationText =
  | { kind: 'coordinates'; latitude: number; longitude: number }
  | { kind: 'name'; name: string; qualifiers: string[] };

const COORDINATES = /^\s*([+-]?\d{1,3}(?:\.\d+)?)\s*,\s*([+-]?\d{1,3}(?:\.\d+)?)\s*$/;

/** The location, or why it cannot be one (for a 400 naming the field). */
export function parseLocationText(text: string): LocationText | { problem: string } {
  const numbers = COORDINATES.exec(text);
  if (numbers) {
    const latitude = Number(numbers[1]);
    const longitude = Number(numbers[2]);
    if (latitude < -90 || latitude > 90) return { problem: `latitude ${latitude} is outside -90..90 (write "latitude,longitude")` };
    if (longitude < -180 || longitude > 180) return { problem: `longitude ${longitude} is outside -180..180 (write "latitude,longitude")` };
    return { kind: 'coordinates', latitude, longitude };
  }
  const [name = '', ...qualifiers] = text.split(',').map((part) => part.trim());
  if (!/\p{L}/u.test(name)) return { problem: 'expected a place name ("Oslo", "Paris, TX") or "latitude,longitude" in decimal degrees' };
  return { kind: 'name', name, qualifiers: qualifiers.filter((q) => q.length > 0) };
}
