// One key per page for de-duplicating results from several engines: the same page reached over
// http or https, with or without `www.`, a default port, a fragment, tracking parameters or a
// trailing slash gives the same key. The key is for comparing, not for linking.

/** Query parameters that only say where a click came from. Compared case-insensitively. */
const TRACKING_PARAMS = new Set([
  'gclid',
  'gclsrc',
  'dclid',
  'gbraid',
  'wbraid',
  'fbclid',
  'msclkid',
  'yclid',
  'twclid',
  'ttclid',
  'igshid',
  'mc_cid',
  'mc_eid',
  'ref',
  'ref_src',
  'ref_url',
  '_ga',
  '_gl',
]);
const TRACKING_PREFIXES = ['utm_'];
/** Both are dropped: once every URL is https, a port left from either scheme's default means nothing. */
const DEFAULT_PORTS = new Set(['80', '443']);

function isTracking(name: string): boolean {
  const lower = name.toLowerCase();
  return TRACKING_PARAMS.has(lower) || TRACKING_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

/** The comparison key of an http(s) URL; anything else (unparsable, other schemes) comes back trimmed. */
export function canonicalUrl(url: string): string {
  const trimmed = url.trim();
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return trimmed;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return trimmed;

  const host = parsed.hostname.replace(/^www\./, '');
  const port = parsed.port && !DEFAULT_PORTS.has(parsed.port) ? `:${parsed.port}` : '';
  const path = parsed.pathname.length > 1 ? parsed.pathname.replace(/\/+$/, '') || '/' : '/';
  const kept = [...parsed.searchParams].filter(([name]) => !isTracking(name));
  kept.sort(([nameA, valueA], [nameB, valueB]) => compare(nameA, nameB) || compare(valueA, valueB));
  const query = kept.length > 0 ? `?${new URLSearchParams(kept).toString()}` : '';
  return `https://${host}${port}${path}${query}`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
