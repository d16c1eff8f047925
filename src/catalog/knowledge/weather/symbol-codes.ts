// MET Norway's weather symbol codes in words: the English column of the official icon legend
// (repo metno/weathericons, weather/legend.csv, commit 4c93ad25928aa686807952d28d2758acc326e4b1).
// Locationforecast appends _day, _night or _polartwilight to the codes whose icon shows the sun or
// moon; the words are the same for all three.

/** Code (without variant) -> the legend's English words. */
const LEGEND: Readonly<Record<string, string>> = {
  clearsky: 'Clear sky',
  fair: 'Fair',
  partlycloudy: 'Partly cloudy',
  cloudy: 'Cloudy',
  lightrainshowers: 'Light rain showers',
  rainshowers: 'Rain showers',
  heavyrainshowers: 'Heavy rain showers',
  lightrainshowersandthunder: 'Light rain showers and thunder',
  rainshowersandthunder: 'Rain showers and thunder',
  heavyrainshowersandthunder: 'Heavy rain showers and thunder',
  lightsleetshowers: 'Light sleet showers',
  sleetshowers: 'Sleet showers',
  heavysleetshowers: 'Heavy sleet showers',
  // Spelt with "lights" in the API and the legend; MET's README calls it a typo kept for compatibility.
  lightssleetshowersandthunder: 'Light sleet showers and thunder',
  sleetshowersandthunder: 'Sleet showers and thunder',
  heavysleetshowersandthunder: 'Heavy sleet showers and thunder',
  lightsnowshowers: 'Light snow showers',
  snowshowers: 'Snow showers',
  heavysnowshowers: 'Heavy snow showers',
  lightssnowshowersandthunder: 'Light snow showers and thunder',
  snowshowersandthunder: 'Snow showers and thunder',
  heavysnowshowersandthunder: 'Heavy snow showers and thunder',
  lightrain: 'Light rain',
  rain: 'Rain',
  heavyrain: 'Heavy rain',
  lightrainandthunder: 'Light rain and thunder',
  rainandthunder: 'Rain and thunder',
  heavyrainandthunder: 'Heavy rain and thunder',
  lightsleet: 'Light sleet',
  sleet: 'Sleet',
  heavysleet: 'Heavy sleet',
  lightsleetandthunder: 'Light sleet and thunder',
  sleetandthunder: 'Sleet and thunder',
  heavysleetandthunder: 'Heavy sleet and thunder',
  lightsnow: 'Light snow',
  snow: 'Snow',
  heavysnow: 'Heavy snow',
  lightsnowandthunder: 'Light snow and thunder',
  snowandthunder: 'Snow and thunder',
  heavysnowandthunder: 'Heavy snow and thunder',
  fog: 'Fog',
};

/** MET's README promises the "lights" typo will be fixed in a later version; both spellings are read. */
const CORRECTED_SPELLINGS: Readonly<Record<string, string>> = {
  lightsleetshowersandthunder: 'lightssleetshowersandthunder',
  lightsnowshowersandthunder: 'lightssnowshowersandthunder',
};

const VARIANT = /_(?:day|night|polartwilight)$/;

export interface Condition {
  /** MET's code as sent, variant included: "partlycloudy_day". */
  symbolCode: string;
  /** The legend's words: "Partly cloudy"; null for a code the legend does not (yet) list. */
  text: string | null;
}

/** The code without its _day/_night/_polartwilight variant. */
export function baseSymbol(symbolCode: string): string {
  const base = symbolCode.replace(VARIANT, '');
  return CORRECTED_SPELLINGS[base] ?? base;
}

export function conditionOf(symbolCode: string): Condition {
  return { symbolCode, text: LEGEND[baseSymbol(symbolCode)] ?? null };
}

/**
 * A rank for choosing between symbols that cover a day equally long: dry skies from clear (0) to
 * fog (4), then precipitation by intensity (light 5, plain 6, heavy 7), thunder adding 3. This is
 * the gateway's own order, not MET's; the legend gives none.
 */
export function severityOf(symbolCode: string): number {
  const base = baseSymbol(symbolCode);
  const dry = ['clearsky', 'fair', 'partlycloudy', 'cloudy', 'fog'].indexOf(base);
  if (dry >= 0) return dry;
  const intensity = base.startsWith('heavy') ? 7 : base.startsWith('light') ? 5 : 6;
  return intensity + (base.endsWith('thunder') ? 3 : 0);
}
