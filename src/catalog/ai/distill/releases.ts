// Changelogs: the releases they list, each with its version, date and entries attached, newest
// first. A release header is a heading, or a short line of its own ("**5.2.5 / 2025-06-08**"),
// that starts with a version: "2.20.3 / 2019-10-11", "[18.1.3](…) (2020-04-16)", "v2.6.30",
// "Version 1.2 (June 2020)", "pkg 1.0.0". Entries are the items and paragraphs up to the next header.
import { squash, type Block, type Release } from './document.ts';
import { extractDates } from './facts.ts';

/** A version at the start of a header, after an optional name, "v", "Version" or "Release". */
const HEADER_VERSION = /^(?:[\w@/.-]+\s+)?(?:version\s+|release\s+)?[[(]?(v?\d+\.\d+(?:\.\d+)*(?:[-+~][0-9A-Za-z.~+-]*[0-9A-Za-z])?)\b/i;
const MAX_HEADER_WORDS = 8;
const MAX_CHANGE_CHARACTERS = 340;
/**
 * A numbered section title ("1.2 Command Line Options", "2.5 The Closure API"): a bare two- or
 * three-part number followed by capitalised words and no date. Manuals (Texinfo, RFCs) number their
 * sections this way; a release header names its version with a date, a "v", a name, or alone.
 */
const SECTION_NUMBER = /^\d+(?:\.\d+){1,2}\.?\s+\p{Lu}[\p{Ll}\p{Lu}]*(?:[\s,'’-]+\S+)*$/u;
/** At least this many headers make a changelog. */
const MIN_RELEASES = 3;

function headerVersion(block: Block): string | undefined {
  if (block.kind !== 'heading' && block.kind !== 'paragraph') return undefined;
  const text = squash(block.text);
  // A paragraph heads a release only as a short line of its own with a date: "**5.2.5 / 2025-06-08**".
  if (block.kind === 'paragraph' && (text.split(' ').length > MAX_HEADER_WORDS || extractDates(text).dates.length === 0)) return undefined;
  if (SECTION_NUMBER.test(text) && extractDates(text).dates.length === 0 && !/\((?:unreleased|yanked|beta|alpha|rc|draft)\b/i.test(text)) return undefined;
  return HEADER_VERSION.exec(text)?.[1];
}

/**
 * A commit's id closing an entry, as auto-changelog links it ("[New] add types [`6469cbf`](…)" reads "New add types 6469cbf";
 * round 14): hexadecimal, with a digit and a letter, so no word or number.
 */
const TRAILING_COMMIT = /\s+(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}$/;

/** One line per entry: commit hashes and link residue ("see ( )") dropped, a call's "()" kept ("router.listRoutes()"), long entries clipped. */
function changeText(text: string): string {
  const line = squash(text.replace(/\s*\((?:[0-9a-f]{7,40})\)/g, '').replace(/(?<![\w$])\s*\(\s*\)/g, '')).replace(TRAILING_COMMIT, '');
  return line.length <= MAX_CHANGE_CHARACTERS ? line : `${line.slice(0, MAX_CHANGE_CHARACTERS - 1).trimEnd()}…`;
}

const numericParts = (version: string) => version.split(/[^\d]+/).filter(Boolean).map(Number);
function compareVersions(a: string, b: string): number {
  const [x, y] = [numericParts(a), numericParts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i += 1) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

/** An entry repeated in this many releases or more is routine ("Non-maintainer upload.", "Update translations."). */
const ROUTINE_REPEATS = 3;

/**
 * Releases without their routine entries: an entry written the same way in several releases says
 * nothing about any of them, and would take the place of one that does. A release with nothing
 * else keeps its first. `releases` are newest first.
 */
export function withoutRoutineChanges(releases: Release[]): Release[] {
  const repeats = new Map<string, number>();
  for (const release of releases) for (const change of new Set(release.changes.map((c) => c.toLowerCase()))) repeats.set(change, (repeats.get(change) ?? 0) + 1);
  const routine = (change: string) => (repeats.get(change.toLowerCase()) ?? 0) >= ROUTINE_REPEATS;
  return releases.map((release, i) => {
    const own = release.changes.filter((change) => !routine(change));
    // The newest release keeps them after its own: "New upstream release" still says what it is.
    if (i === 0) return { ...release, changes: [...own, ...release.changes.filter(routine)] };
    return { ...release, changes: own.length > 0 ? own : release.changes.slice(0, 1) };
  });
}

/** Who made each release, said only where it changes from the newer release before it: a maintainer named ten times is named once. */
export function byWhenChanged(releases: readonly Release[]): Release[] {
  return releases.map((release, i) => {
    if (release.by === undefined || release.by !== releases[i - 1]?.by) return release;
    const { by: _same, ...rest } = release;
    return rest;
  });
}

/** A release's header as the changelog writes it ("v1.0.0 - 2016-09-19", "1.0.0 / 2014-05-01"), when its blocks hold one. */
export function headerAsWritten(blocks: readonly Block[], version: string): string | undefined {
  const header = blocks.find((block) => headerVersion(block) === version);
  return header ? squash(header.text).replace(/^#+\s*/, '') : undefined;
}

/** The releases a changelog lists, newest first; empty when the blocks are not a changelog. */
export function releasesOf(blocks: readonly Block[]): Release[] {
  const releases: Release[] = [];
  let current: Release | undefined;
  /** Paragraphs under a release's list items explain an item ("The usual way to check for this:"); they come after every item. */
  const explaining = new Map<Release, string[]>();
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
      if (!text || !/[\p{L}\p{N}]/u.test(text)) continue;
      const change = breaking ? `${breaking}: ${text}` : text;
      const underItem = block.kind === 'paragraph' && current.changes.length > 0 && explaining.has(current);
      // A line introducing the code under it says nothing without that code.
      if (block.kind === 'paragraph' && /:$/.test(text)) continue;
      if (underItem) explaining.get(current)!.push(change);
      else current.changes.push(change);
      if (block.kind === 'item' && !explaining.has(current)) explaining.set(current, []);
    }
  }
  for (const [release, paragraphs] of explaining) release.changes.push(...paragraphs);
  if (releases.length < MIN_RELEASES) return [];
  // Version numbers repeated in examples ("1.2.3", "1.2.3") are not a history of releases.
  if (new Set(releases.map((release) => release.version)).size < releases.length * 0.8) return [];
  // Most changelogs put the newest release first; some append.
  return withoutRoutineChanges(compareVersions(releases[0]!.version, releases.at(-1)!.version) < 0 ? releases.reverse() : releases);
}
