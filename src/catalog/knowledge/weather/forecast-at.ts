// The forecast half of get_live_weather: MET Norway's compact forecast at a resolved place,
// summarised on the place's own clock.
import type { SourceNote } from '../../../upstream/provider.ts';
import type { ProviderCaller } from '../../../upstream/provider-call.ts';
import { fetchCompactForecast } from '../../../upstream/providers/metno.ts';
import { ToolError } from '../../tool.ts';
import { summariseForecast, type ForecastSummary } from './forecast-summary.ts';

export interface ForecastPlace {
  latitude: number;
  longitude: number;
  /** IANA time zone: "Europe/Oslo". */
  timeZone: string;
}

export async function forecastAt(
  caller: ProviderCaller,
  place: ForecastPlace,
  now: Date,
  signal: AbortSignal,
): Promise<{ forecast: ForecastSummary; source: SourceNote }> {
  checkPlace(place);
  const answer = await fetchCompactForecast(caller, place.latitude, place.longitude, signal);
  return { forecast: summariseForecast(answer.value, place.timeZone, now), source: answer.source };
}

/** Before any request: a place MET can be asked about and a zone the platform knows. */
function checkPlace({ latitude, longitude, timeZone }: ForecastPlace): void {
  if (!Number.isFinite(latitude) || latitude < -90 || latitude > 90 || !Number.isFinite(longitude) || longitude < -180 || longitude > 180) {
    throw new ToolError(400, 'invalid_location', `location: expected latitude from -90 to 90 and longitude from -180 to 180 (got ${latitude}, ${longitude})`, { field: 'location' });
  }
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    throw new ToolError(400, 'invalid_location', `location: the time zone "${timeZone}" is not an IANA time zone this server knows`, { field: 'location' });
  }
}
