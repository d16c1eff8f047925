// How people name the site a URL is on: its host without "www.".

/** "https://www.example.com/a" -> "example.com"; '' for text that is not a URL. */
export function siteHost(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}
