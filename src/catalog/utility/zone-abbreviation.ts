// The abbreviation of a zone's time ("EST", "CEST", "JST"). ICU gives one only in locales where it
// is in common use (en-US knows EST but not CET; en-GB knows CET; ja-JP knows JST), so several
// locales are asked in turn. Across every ICU zone, in January and in July, no two of these locales
// give different letters for the same zone and instant (checked when this list was chosen), so the
// order only decides which locale is asked first. Zones with no alphabetic abbreviation anywhere
// (tzdata itself writes "+08" for Singapore's) get ICU's "GMT+8" form.

const ABBREVIATION_LOCALES = ['en-US', 'en-GB', 'en-AU', 'en-NZ', 'en-IN', 'en-IE', 'en-ZA', 'en-SG', 'en-HK', 'en-CA', 'ja-JP'] as const;

const alphabetic = /^[A-Z]{2,5}$/;
const formatters = new Map<string, Intl.DateTimeFormat>();

function shortZoneName(locale: string, zone: string, instant: number): string {
  const key = `${locale} ${zone}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'short' });
    formatters.set(key, formatter);
  }
  return formatter.formatToParts(instant).find((part) => part.type === 'timeZoneName')?.value ?? '';
}

export function zoneAbbreviation(zone: string, instant: number): string {
  let fallback = '';
  for (const locale of ABBREVIATION_LOCALES) {
    const name = shortZoneName(locale, zone, instant);
    if (alphabetic.test(name)) return name;
    if (!fallback) fallback = name;
  }
  return fallback;
}
