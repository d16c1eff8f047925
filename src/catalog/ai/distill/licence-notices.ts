// A licence file's notices: who holds the copyright of what, under which licence. A Debian copyright file or a
// bundle of notices (libxt6's: five holders, each with their own permission text) names its holders once each,
// spread over the file; the opening, reading the first licence text verbatim, reaches one or two of them. The
// notices come first, one short line each, and the opening reads on without them.
import { squash, type Block } from './document.ts';

/** A copyright notice on a line of its own: "Copyright © 2003,2019 Thomas E. Dickey", "Copyright (c) 1993, 2011, Oracle…". */
const NOTICE = /^Copyright\s+(?:©|\(c\)|\d)/i;
/** What a notice adds after its holder: "All rights reserved." */
const RESERVED = /[.,]?\s*All rights reserved\.?.*$/i;

/** Cut at a word within `characters`, marked "…". */
function clip(text: string, characters: number): string {
  if (text.length <= characters) return text;
  const cut = text.slice(0, characters);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), characters / 2)).replace(/[\s,;]+$/, '')} …`;
}

export interface LicenceNotices {
  /**
   * One entry per licence of a machine-readable file ("BSD-2-clause" with the holders of its stanzas), or per
   * notice of a bundle of notices (no licence named), in the document's order.
   */
  entries: { licence?: string; holders: string[] }[];
  /** The blocks they come from, which the opening then leaves out. */
  blocks: Set<Block>;
}

export function licenceNotices(blocks: readonly Block[]): LicenceNotices {
  const entries: LicenceNotices['entries'] = [];
  const from = new Set<Block>();
  for (const block of blocks) {
    if (block.kind === 'code') continue;
    const text = squash(block.text);
    // A machine-readable copyright file's files stanza, as its reader gives it (read-debian-copyright.ts).
    const stanza = block.kind === 'item' ? block.stanza : undefined;
    if (stanza) {
      const { holders, licence } = stanza;
      const entry = entries.find((candidate) => candidate.licence === licence) ?? entries[entries.push({ licence, holders: [] }) - 1]!;
      if (!entry.holders.includes(holders)) entry.holders.push(holders);
    } else if (NOTICE.test(text) && text.length <= 200) {
      const notice = text.replace(RESERVED, '');
      if (!entries.some((entry) => entry.holders.includes(notice))) entries.push({ holders: [notice] });
    } else continue;
    from.add(block);
  }
  return { entries, blocks: from };
}

/** How many blocks open with a copyright notice: a file of several is a bundle of licences, whatever its title. */
export const noticeCount = (blocks: readonly Block[]) => blocks.filter((block) => block.kind !== 'code' && NOTICE.test(block.text.trimStart())).length;

/** The share of the budget the notices may take before the opening. */
const NOTICES_SHARE = 0.3;
/**
 * Characters of a stanza's holders kept: the share spread over all stanzas (about 3.2 characters a token), at least
 * a name or two with their years, at most a short paragraph.
 */
const [MIN_HOLDERS, MAX_HOLDERS, CHARACTERS_PER_TOKEN] = [40, 160, 3.2];
const NOTICE_CHARACTERS = 110;

/** The years a holders' list opens with ("1992, 1995-2020, "): they do not count against its characters, so a name is not cut for them. */
const LEADING_YEARS = /^(?:\d{4}(?:\s*[-–]\s*\d{4})?[\s,]+)+/;
export const clipHolders = (holders: string, characters: number) => clip(holders, characters + (LEADING_YEARS.exec(holders)?.[0].length ?? 0));

const lineOf = (entry: LicenceNotices['entries'][number], stanzas: number, characters: number) =>
  entry.licence ? `${entry.licence}: ${entry.holders.slice(0, stanzas).map((holders) => clipHolders(holders, characters)).join('; ')}${stanzas < entry.holders.length ? '; …' : ''}` : clip(entry.holders[0]!, NOTICE_CHARACTERS);

/**
 * The notices as the summary's first lines, within their share of `budget`: every licence with the holders of its
 * first stanza first (a licence named is worth more than a third holder of another), then, while they fit, the
 * holders of further stanzas, one more for each licence in turn. Empty when there are fewer than two holders.
 */
export function noticesText(notices: LicenceNotices, budget: number, countTokens: (text: string) => number): string {
  const { entries } = notices;
  const share = budget * NOTICES_SHARE;
  const stanzas = entries.reduce((count, entry) => count + entry.holders.length, 0);
  if (stanzas < 2) return '';
  const characters = Math.min(MAX_HOLDERS, Math.max(MIN_HOLDERS, Math.floor((share * CHARACTERS_PER_TOKEN) / stanzas)));
  const fits = (lines: string[]) => countTokens(JSON.stringify(lines.join('\n'))) <= share;
  const shown: number[] = [];
  for (let i = 0; i < entries.length; i += 1) {
    const next = [...shown, 1];
    if (!fits(next.map((stanzas, i) => lineOf(entries[i]!, stanzas, characters)))) break;
    shown.push(1);
  }
  for (let grown = true; grown; ) {
    grown = false;
    for (let i = 0; i < shown.length; i += 1) {
      if (shown[i]! >= entries[i]!.holders.length) continue;
      const next = shown.map((stanzas, j) => (j === i ? stanzas + 1 : stanzas));
      if (!fits(next.map((stanzas, j) => lineOf(entries[j]!, stanzas, characters)))) continue;
      shown[i] = shown[i]! + 1;
      grown = true;
    }
  }
  return shown.map((count, i) => lineOf(entries[i]!, count, characters)).join('\n');
}
