// Web addresses, e-mail addresses and percent-encoded fragments are not content: "81%" and "A9ri"
// in "caf%C3%A9%81%A9ri" are pieces of a URL. They are blanked (same length, so positions hold)
// before numbers, names and keywords are looked for.
const ADDRESS = /\b(?:https?|ftp|file|git|ssh):\/\/[^\s<>"'`)\]]+|\bwww\.[^\s<>"'`)\]]+|\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b|(?:%[0-9A-Fa-f]{2}){2,}[\w%-]*/g;

export const maskUrls = (text: string): string => text.replace(ADDRESS, (match) => ' '.repeat(match.length));
