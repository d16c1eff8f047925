// Place names compared the way people type them: no accents, no case, punctuation as spaces
// ("Zürich" = "zurich", "St. Louis" = "st louis", "Straße" = "strasse").
export function foldName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replaceAll('ß', 'ss')
    .replaceAll('ø', 'o')
    .replaceAll('Ø', 'o')
    .replaceAll('æ', 'ae')
    .replaceAll('Æ', 'ae')
    .replaceAll('ł', 'l')
    .replaceAll('Ł', 'l')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
