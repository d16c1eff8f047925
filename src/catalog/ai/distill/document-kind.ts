// What sort of document this is decides what its structure is: a changelog's releases, a
// manual's options, a licence's terms, a reference's definitions, an article's lead and sections.
import type { Definition } from './definitions.ts';
import type { DocumentFormat, ReadDocument, Release } from './document.ts';
import { noticeCount } from './licence-notices.ts';

export type DocumentKind = 'changelog' | 'manual' | 'licence' | 'reference' | 'article';

const CHANGELOG_TITLE = /\b(?:change\s?log|changes|history|news|release notes|releases|version history)\b/i;
const LICENCE_TITLE = /\b(?:licen[cs]e|public domain|cc0|legal code)\b/i;

export function documentKind(document: ReadDocument, title: string, releases: readonly Release[], definitions: readonly Definition[], format: DocumentFormat): DocumentKind {
  const headings = document.blocks.filter((block) => block.kind === 'heading');
  const dated = releases.filter((release) => release.date).length;
  if (releases.length >= 3 && (CHANGELOG_TITLE.test(title) || document.releases !== undefined || dated >= 3 || releases.length >= headings.length * 0.4)) return 'changelog';
  const headingNames = new Set(headings.map((heading) => heading.text.toUpperCase()));
  if (format === 'troff' || (headingNames.has('NAME') && (headingNames.has('SYNOPSIS') || headingNames.has('DESCRIPTION')))) return 'manual';
  const opening = document.blocks.slice(0, 12).map((block) => block.text).join('\n');
  const text = document.blocks.map((block) => block.text).join('\n');
  const legal = (text.match(/\b(?:licen[cs]e[de]?|licensor|warrant(?:y|ies)|permitted|copyright|distribut(?:e|ion))\b/gi)?.length ?? 0) / Math.max(1, text.length / 1000);
  // A README that shows how to apply its licence is code-heavy; a licence quoting its own notice a few times is not.
  const code = document.blocks.filter((block) => block.kind === 'code');
  const codeShare = code.reduce((sum, block) => sum + block.text.length, 0) / Math.max(1, text.length);
  // Several copyright notices, each with its terms, make a licence file whatever its first line says.
  const named = LICENCE_TITLE.test(title) || LICENCE_TITLE.test(opening) || noticeCount(document.blocks) >= 3;
  if (named && legal >= 2.5 && (code.length <= 2 || codeShare < 0.1)) return 'licence';
  if (definitions.length >= 8) return 'reference';
  return 'article';
}
