// The Internet Archive's Wayback Availability API: `GET /wayback/available?url=...`
// answers `{"archived_snapshots":{"closest":{"available":true,"url":...,"timestamp":"YYYYMMDDhhmmss","status":"200"}}}`,
// or `{"archived_snapshots":{}}` when the URL is not archived or not currently accessible.
import type { RawResponse } from '../http/http-types.ts';
import type { ProviderAnswer, ProviderCaller } from '../provider-call.ts';
import { defineProvider } from '../provider.ts';
import { badAnswer } from '../upstream-errors.ts';
import { httpUrl } from './http-url.ts';
import { isoFromWaybackStamp } from './iso-time.ts';
import { isJsonObject, jsonObjectOf, stringMember } from './response-body.ts';

export const wayback = defineProvider({
  id: 'wayback',
  name: 'Wayback Machine',
  baseUrl: { env: 'TOOLGATE_WAYBACK_URL', default: 'https://archive.org' },
  timeoutMs: 8_000,
  maxBytes: 1024 * 1024,
  // The Archive publishes no number for this API; a nonprofit's service is asked modestly.
  rateLimit: { requests: 2, perMs: 1_000, concurrency: 2, maxQueueMs: 2_000 },
  cacheTtlMs: 60 * 60_000,
  cacheReason: "A URL's closest snapshot only changes when the Archive captures the page again; an hour old is fresh enough.",
  staleForMs: 24 * 60 * 60_000,
  attribution: 'Internet Archive Wayback Machine',
  termsUrl: 'https://archive.org/about/terms.php',
  docsUrl: 'https://archive.org/help/wayback_api.php',
});

export type WaybackAvailability =
  | { archived: false }
  | {
      archived: true;
      /** The snapshot in the Wayback Machine, https. */
      archiveUrl: string;
      /** When it was captured, ISO 8601 UTC. */
      timestamp: string;
      /** The HTTP status the Archive recorded for the capture, when it gave a number. */
      status: number | null;
    };

/** The most recent accessible capture of the URL (the API's answer when no timestamp is given). */
export async function lookupWayback(caller: ProviderCaller, url: string, signal: AbortSignal): Promise<ProviderAnswer<WaybackAvailability>> {
  return caller.call(wayback, { path: '/wayback/available', query: { url } }, parseWayback, signal);
}

export function parseWayback(response: RawResponse): WaybackAvailability {
  const body = jsonObjectOf(response, wayback.name);
  const snapshots = body.archived_snapshots;
  if (!isJsonObject(snapshots)) throw badAnswer(wayback.name, 'its answer is not the availability object (no archived_snapshots)');
  const closest = snapshots.closest;
  if (closest === undefined) return { archived: false };
  if (!isJsonObject(closest)) throw badAnswer(wayback.name, 'its archived_snapshots.closest is not an object');
  if (closest.available === false) return { archived: false };
  const archiveUrl = httpsArchiveUrl(closest.url);
  const stamp = stringMember(closest, 'timestamp');
  const timestamp = stamp ? isoFromWaybackStamp(stamp) : undefined;
  if (!archiveUrl || !timestamp) throw badAnswer(wayback.name, 'its closest snapshot has no usable url and 14-digit timestamp');
  const status = stringMember(closest, 'status');
  return { archived: true, archiveUrl, timestamp, status: status && /^\d{3}$/.test(status) ? Number(status) : null };
}

/** The API links snapshots as `http://web.archive.org/...`; the Archive serves them over https. */
function httpsArchiveUrl(value: unknown): string | undefined {
  const href = httpUrl(value);
  if (!href) return undefined;
  const url = new URL(href);
  if (url.protocol === 'http:' && (url.hostname === 'archive.org' || url.hostname.endsWith('.archive.org'))) url.protocol = 'https:';
  return url.protocol === 'https:' ? url.href : undefined;
}
