// Changelogs: the releases they list, each with its version, date and entries attached, newest
// first. A release header is a heading, or a short line of its own ("**5.2.5 / 2025-06-08**"),
// that starts with a version: "2.20.3 / 2019-10-11", "[18.1.3](…) (2020-04-16)", "v2.6.30",
// "Version 1.2 (June 2020)", "pkg 1.0.0". Entries are the items and paragraphs up to the next header.
import { squash, type Block, type Release } from './document.ts';
import { extractDates } from './facts.ts';

/** A version at the start of a header, after an optional name, "v", "Version" or "Release". */
const HEADER_VERSION = /^(?:[\w@/.-]+\s+)?(?:version\s+|release\s+)?[[(]?(v?\d+\.\d+(?:\.\d+)*(?:[-+~][0-9A-Za-z.~+-]*[0-9A-Za-z])?)\b/i;
const MAX_HEADER_WORDS = 8;
const MAX_CHANGE_CHARACTERS = 180;
/** At least this many headers make a changelog. */
const MIN_RELEASES = 3;

function headerVersion(block: Block): string | undefined {
  if (block.kind !== 'heading' && block.kind !== 'paragraph') return undefined;
  const text = squash(block.text);
  // A paragraph heads a release only as a short line of its own with a date: "**5.2.5 / 2025-06-08**".
  if (block.kind === 'paragraph' && (text.split(' ').length > MAX_HEADER_WORDS || extractDates(text).dates.length === 0)) return undefined;
  return HEADER_VERSION.exec(text)?.[1];
}

/** One line per entry: commit hashes and trailing link residue dropped, long entries clipped. */
function changeText(text: string): string {
  const line = squash(text.replace(/\s*\((?:[0-9a-f]{7,40})\)/g, '').replace(/\s*\(\s*\)/g, ''));
  return line.length <= MAX_CHANGE_CHARACTERS ? line : `${line.slice(0, MAX_CHANGE_CHARACTERS - 1).trimEnd()}…`;
}

const numericParts = (version: string) => version.split(/[^\d]+/).filter(Boolean).map(Number);
function compareVersions(a: string, b: string): number {
  const [x, y] = [numericParts(a), numericParts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i += 1) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

/** The releases a changelog lists, newest first; empty when the blocks are not a changelog. */
export function releasesOf(blocks: readonly Block[]): Release[] {
  const releases: Release[] = [];
  let current: Release | undefined;
  /** The heading of breaking changes inside a release ("⚠ BREAKING CHANGES"), said on each of its entries. */
  let breaking = '';
  for (const block of blocks) {
    const version = headerVersion(block);
    if (version) {
      const { dates } = extractDates(block.text);
      current = { version, date: dates[0]?.text ?? '', changes: [] };
      releases.push(current);
      breaking = '';
      continue;
    }
    if (!current) continue;
    if (block.kind === 'heading') {
      // Sections inside a release ("Bug Fixes", "Features"); breaking changes say so on each entry.
      breaking = /breaking/i.test(block.text) ? block.text.replace(/^[^\p{L}]+/u, '') : '';
      continue;
    }
    if (block.kind === 'item' || block.kind === 'paragraph') {
      const text = changeText(block.text);
      if (text && /[\p{L}\p{N}]/u.test(text)) current.changes.push(breaking ? `${breaking}: ${text}` : text);
    }
  }
  if (releases.length < MIN_RELEASES) return [];
  // Version numbers repeated in examples ("1.2.3", "1.2.3") are not a history of releases.
  if (new Set(releases.map((release) => release.version)).size < releases.length * 0.8) return [];
  // Most changelogs put the newest release first; some append.
  return compareVersions(releases[0]!.version, releases.at(-1)!.version) < 0 ? releases.reverse() : releases;
}
