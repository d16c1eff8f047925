// Result links are only handed on when they are absolute http(s) URLs.

/** The value as an absolute http(s) URL (normalised href), or undefined. */
export function httpUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
}
