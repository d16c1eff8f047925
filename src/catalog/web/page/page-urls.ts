// Making a page's URLs absolute the way a browser does: against its <base href>, which is itself
// relative to the page's address.

/** The URL relative references in the page resolve against. */
export function documentBaseUrl(document: Document, pageUrl: string): string {
  const href = document.querySelector('base[href]')?.getAttribute('href')?.trim();
  if (!href) return pageUrl;
  return absoluteHttpUrl(href, pageUrl) ?? pageUrl;
}

/** The absolute http(s) URL a reference names, or null (empty, unparseable, javascript:, data:, mailto:...). */
export function absoluteHttpUrl(reference: string | null | undefined, base: string): string | null {
  // Browsers strip leading and trailing C0 controls and spaces, and drop tabs and newlines inside.
  const cleaned = reference?.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
  if (!cleaned) return null;
  try {
    const url = new URL(cleaned, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
