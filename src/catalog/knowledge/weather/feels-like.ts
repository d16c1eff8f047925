// The temperature it feels like, from air temperature (°C), wind speed at 10 m (m/s) and relative
// humidity (%):
//   wind chill  (T <= 10 °C and wind > 4.8 km/h): the 2001 wind chill index of Environment Canada
//               and the US NWS, 13.12 + 0.6215 T - 11.37 V^0.16 + 0.3965 T V^0.16 (V in km/h);
//   heat index  (T >= 27 °C): the NWS procedure (wpc.ncep.noaa.gov/html/heatindex_equation.shtml),
//               in °F: Steadman's simple formula averaged with T, and when that is 80 °F or more the Rothfusz regression
//               with its low- and high-humidity adjustments;
//   otherwise the air temperature itself.

export type FeelsLikeFormula = 'wind_chill' | 'heat_index' | 'air_temperature';

export interface FeelsLike {
  /** °C, one decimal. */
  value: number;
  formula: FeelsLikeFormula;
}

const WIND_CHILL_MAX_C = 10;
const WIND_CHILL_MIN_KMH = 4.8;
const HEAT_INDEX_MIN_C = 27;

export function feelsLike(temperatureC: number, windSpeedMs: number | undefined, relativeHumidity: number | undefined): FeelsLike {
  const windKmh = windSpeedMs === undefined ? undefined : windSpeedMs * 3.6;
  if (temperatureC <= WIND_CHILL_MAX_C && windKmh !== undefined && windKmh > WIND_CHILL_MIN_KMH) {
    return { value: oneDecimal(windChill(temperatureC, windKmh)), formula: 'wind_chill' };
  }
  if (temperatureC >= HEAT_INDEX_MIN_C && relativeHumidity !== undefined) {
    return { value: oneDecimal(heatIndex(temperatureC, relativeHumidity)), formula: 'heat_index' };
  }
  return { value: oneDecimal(temperatureC), formula: 'air_temperature' };
}

export function windChill(temperatureC: number, windKmh: number): number {
  const v = windKmh ** 0.16;
  return 13.12 + 0.6215 * temperatureC - 11.37 * v + 0.3965 * temperatureC * v;
}

export function heatIndex(temperatureC: number, relativeHumidity: number): number {
  const t = temperatureC * 1.8 + 32;
  const rh = relativeHumidity;
  // "The simple formula is computed first and the result averaged with the temperature. If this
  // heat index value is 80 degrees F or higher, the full regression equation ... is applied."
  const averaged = (0.5 * (t + 61 + (t - 68) * 1.2 + rh * 0.094) + t) / 2;
  if (averaged < 80) return fahrenheitToCelsius(averaged);
  let hi =
    -42.379 + 2.04901523 * t + 10.14333127 * rh - 0.22475541 * t * rh - 0.00683783 * t * t - 0.05481717 * rh * rh +
    0.00122874 * t * t * rh + 0.00085282 * t * rh * rh - 0.00000199 * t * t * rh * rh;
  if (rh < 13 && t >= 80 && t <= 112) hi -= ((13 - rh) / 4) * Math.sqrt((17 - Math.abs(t - 95)) / 17);
  else if (rh > 85 && t >= 80 && t <= 87) hi += ((rh - 85) / 10) * ((87 - t) / 5);
  return fahrenheitToCelsius(hi);
}

function fahrenheitToCelsius(f: number): number {
  return (f - 32) / 1.8;
}

function oneDecimal(value: number): number {
  return Math.round(value * 10) / 10;
}
